import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { onInterrupt } from '../lib/cli/interrupt.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { connect } from '../lib/kube/connect.ts';
import { defaultStateNamespace } from '../lib/migrate/checkpoint-configmap.ts';
import { migrateOptionsOf } from '../lib/migrate/options.ts';
import { strategyChoices } from '../lib/migrate/plan-types.ts';
import type { MigrationReport } from '../lib/migrate/report.ts';
import { runMigration } from '../lib/migrate/run.ts';
import { migrationTable } from '../lib/render/migrate-table.ts';
import { printResult } from '../lib/render/output.ts';

export default class Migrate extends AsoCommand {
  static override summary =
    "Rewrite objects stored at old storage versions at the current one, then clean the CRDs' stored versions";
  static override description =
    `Resumable: progress is saved after every batch; rerun the same command to resume. Ctrl-C finishes the batch in flight, saves, and exits ${exitCodes.interrupted.code}. Client-side conversion (--strategy client) is not available yet.`;
  static override enableJsonFlag = true;
  static override examples = [
    '<%= config.bin %> migrate --to v1api --dry-run',
    '<%= config.bin %> migrate --to v1api --kind flexibleservers.dbforpostgresql.azure.com',
    '<%= config.bin %> migrate --to latest --batch-size 200 --concurrency 8 -o json',
  ];
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    to: Flags.string({
      required: true,
      description:
        'the storage version objects must end at: latest, a prefix (v1alpha1api, v1beta, v1api, v) or a version name',
    }),
    kind: Flags.string({
      multiple: true,
      description: 'only this kind: kind, plural, short name or kind.group, case-insensitive (repeatable)',
    }),
    strategy: Flags.option({
      options: strategyChoices,
      default: 'auto' as const,
      description:
        'server: rewrite through the API server; client: convert locally (not available yet); auto: per CRD',
    })(),
    'batch-size': Flags.integer({ min: 1, default: 500, description: 'objects per page and per checkpoint' }),
    concurrency: Flags.integer({ min: 1, max: 64, default: 8, description: 'writes in flight' }),
    'dry-run': Flags.boolean({ description: 'print the plan only; write nothing' }),
    restart: Flags.boolean({ description: 'ignore saved progress and start over' }),
    'state-namespace': Flags.string({
      description: `namespace of the progress ConfigMaps (default: ${defaultStateNamespace})`,
    }),
    'state-file': Flags.string({ description: 'keep progress in this local file instead of ConfigMaps' }),
  };

  async run(): Promise<MigrationReport> {
    const { flags } = await this.parse(Migrate);
    const options = migrateOptionsOf(flags, defaultStateNamespace);
    const format = this.jsonEnabled() ? 'json' : flags.output;
    const client = await connect(kubeconfigOptionsOf(flags));
    const interrupt = onInterrupt((line) => process.stderr.write(`${line}\n`));
    let outcome: Awaited<ReturnType<typeof runMigration>>;
    try {
      outcome = await runMigration(client, options, {
        log: (line) => process.stderr.write(`${line}\n`),
        interrupted: interrupt.requested,
      });
    } finally {
      interrupt.dispose();
    }
    const code = exitCodes[outcome.exit].code;
    if (this.jsonEnabled()) {
      if (code === 0) return outcome.report;
      this.logJson(outcome.report);
    } else {
      await printResult(outcome.report, format, migrationTable, { color: flags.color });
    }
    if (code !== 0) await this.exitAfterOutput(code);
    return outcome.report;
  }
}
