import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { dryRunModes, withBareDryRun } from '../lib/cli/dry-run.ts';
import { onInterrupt } from '../lib/cli/interrupt.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { type OutputFormat, outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { connect } from '../lib/kube/connect.ts';
import { defaultStateNamespace } from '../lib/migrate/checkpoint-configmap.ts';
import { clusterSchemas, connectForSchemas } from '../lib/migrate/manifests/cluster-schemas.ts';
import { manifestOptionsOf } from '../lib/migrate/manifests/options.ts';
import { type ManifestReport, runManifestMigration } from '../lib/migrate/manifests/run.ts';
import { migrateOptionsOf, stateLocationOf } from '../lib/migrate/options.ts';
import { strategyChoices } from '../lib/migrate/plan-types.ts';
import type { MigrationReport } from '../lib/migrate/report.ts';
import { checkLocalPaths, type RestoreReport, runMigration, runRestore } from '../lib/migrate/run.ts';
import { printManifestOutcome } from '../lib/render/migrate-manifests.ts';
import { migrationDisplayFor } from '../lib/render/migrate-progress.ts';
import { restoreText } from '../lib/render/migrate-restore.ts';
import { migrationTable } from '../lib/render/migrate-table.ts';
import { printResult } from '../lib/render/output.ts';

export default class Migrate extends AsoCommand {
  static override summary =
    "Rewrite objects stored at old storage versions at the current one, then clean the CRDs' stored versions";
  static override description =
    `Resumable: progress is saved after every batch; rerun the same command to resume. Ctrl-C finishes the batch in flight, saves, and exits ${exitCodes.interrupted.code}. Client-side conversion (--strategy client, or auto where the API server cannot convert) switches the CRD's conversion to None for the duration and restores it on every exit; a run killed meanwhile is restored by the next run (whatever its --kind), before anything else, or by --restore alone.

With -f, converts manifest files instead (for GitOps): the converted YAML goes to stdout, back into the files (--write) or under --output-dir; comments, key order and other documents are kept. A conversion that would lose a value is refused unless --allow-loss.`;
  static override enableJsonFlag = true;
  static override examples = [
    '<%= config.bin %> migrate --to v1api --dry-run',
    '<%= config.bin %> migrate --to v1api --kind flexibleservers.dbforpostgresql.azure.com',
    '<%= config.bin %> migrate --to latest --batch-size 200 --concurrency 8 -o json',
    '<%= config.bin %> migrate --to v1api --backup-dir ./aso-backup',
    '<%= config.bin %> migrate --to v1api --dry-run=server',
    '<%= config.bin %> migrate --restore',
    '<%= config.bin %> migrate --to v1api -R -f manifests/ --write',
    '<%= config.bin %> migrate --to v1api -R -f manifests/ --diff',
  ];
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    to: Flags.string({
      exactlyOne: ['to', 'restore'],
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
        "server: rewrite each object unchanged through the API server's conversion; client: convert locally with the generated conversions (only where the cluster's CRD schemas are the generated ones); auto: server where the API server converts, else client",
    })(),
    'batch-size': Flags.integer({ min: 1, default: 500, description: 'objects per page and per checkpoint' }),
    concurrency: Flags.integer({ min: 1, max: 64, default: 8, description: 'writes in flight' }),
    'dry-run': Flags.option({
      options: dryRunModes,
      description:
        'client (also a bare --dry-run): print the plan and write nothing; server: send every rewrite with dryRun=All, so the API server converts, validates and admits it but stores nothing',
    })(),
    'backup-dir': Flags.string({
      description: 'before its first write, save each object as YAML to DIR/<crd>/<namespace>/<name>.yaml',
    }),
    restart: Flags.boolean({ description: 'ignore saved progress and start over' }),
    restore: Flags.boolean({
      exactlyOne: ['to', 'restore'],
      exclusive: ['kind', 'dry-run', 'backup-dir', 'restart', 'filename'],
      description:
        'only put back the conversion of every CRD an interrupted client-side run left switched to None, whatever its kind, and do nothing else (any migrate run does this first)',
    }),
    'state-namespace': Flags.string({
      description: `namespace of the progress ConfigMaps (default: ${defaultStateNamespace})`,
    }),
    'state-file': Flags.string({ description: 'keep progress in this local file instead of ConfigMaps' }),
    filename: Flags.string({
      char: 'f',
      multiple: true,
      description:
        'convert manifest files instead of the cluster: a file, a folder or - for stdin (repeatable)',
      helpGroup: 'MANIFESTS',
    }),
    recursive: Flags.boolean({
      char: 'R',
      description: 'walk folders given with -f recursively',
      helpGroup: 'MANIFESTS',
    }),
    write: Flags.boolean({
      description: 'with -f: write the converted manifests back into their files (atomically)',
      helpGroup: 'MANIFESTS',
    }),
    'output-dir': Flags.string({
      description: 'with -f: write the converted manifests under this folder',
      helpGroup: 'MANIFESTS',
    }),
    diff: Flags.boolean({
      description: `with -f: print a unified diff instead of the YAML; exit ${exitCodes.manifestsChanged.code} when anything would change`,
      helpGroup: 'MANIFESTS',
    }),
    'allow-loss': Flags.boolean({
      description: 'with -f: drop values the target version cannot hold instead of refusing the conversion',
      helpGroup: 'MANIFESTS',
    }),
    'keep-going': Flags.boolean({
      description:
        'with -f: when some objects cannot be converted, still convert and write the rest, leaving those as they were; they are listed and the exit code is theirs',
      helpGroup: 'MANIFESTS',
    }),
  };

  async run(): Promise<MigrationReport | ManifestReport | RestoreReport> {
    this.argv = withBareDryRun(this.argv);
    const { flags } = await this.parse(Migrate);
    if (flags.filename) {
      const outcome = await runManifestMigration(
        manifestOptionsOf({ ...flags, to: flags.to ?? '', filename: flags.filename }),
        clusterSchemas(() => connectForSchemas(kubeconfigOptionsOf(flags))),
      );
      const code = exitCodes[outcome.exit].code;
      if (this.jsonEnabled() && code === 0) return outcome.report;
      if (this.jsonEnabled()) this.logJson(outcome.report);
      else await printManifestOutcome(outcome, flags.output, flags.color);
      if (outcome.failure) throw outcome.failure;
      if (code !== 0) await this.exitAfterOutput(code);
      return outcome.report;
    }
    if (flags.restore) return this.restore(flags);
    const options = migrateOptionsOf(
      { ...flags, to: flags.to ?? '', 'dry-run': flags['dry-run'] ?? 'none' },
      defaultStateNamespace,
    );
    checkLocalPaths(options);
    const format = this.jsonEnabled() ? 'json' : flags.output;
    const client = await connect(kubeconfigOptionsOf(flags));
    const display = migrationDisplayFor(process.stderr, format);
    const interrupt = onInterrupt(display.log);
    let outcome: Awaited<ReturnType<typeof runMigration>>;
    try {
      outcome = await runMigration(client, options, {
        log: display.log,
        interrupted: interrupt.requested,
        writing: interrupt.writing,
        ...(display.progress ? { progress: display.progress } : {}),
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

  /** `--restore`: puts back every CRD left switched and prints which (progress lines on stderr). */
  private async restore(
    flags: Parameters<typeof kubeconfigOptionsOf>[0] &
      Parameters<typeof stateLocationOf>[0] & { output: OutputFormat; color: boolean },
  ): Promise<RestoreReport> {
    const state = stateLocationOf(flags, defaultStateNamespace);
    const format = this.jsonEnabled() ? 'json' : flags.output;
    const display = migrationDisplayFor(process.stderr, format);
    const report = await runRestore(await connect(kubeconfigOptionsOf(flags)), state, display.log);
    if (this.jsonEnabled()) return report;
    await printResult(report, format, restoreText, { color: flags.color });
    return report;
  }
}
