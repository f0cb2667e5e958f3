import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { connect } from '../lib/kube/connect.ts';
import { readLocatedManifests } from '../lib/manifests/read.ts';
import { printResult } from '../lib/render/output.ts';
import { upgradeCheckMarkdown, upgradeCheckView } from '../lib/render/upgrade-check-view.ts';
import { checkUpgrade, upgradeCheckExit } from '../lib/upgrade/check.ts';
import { readCluster } from '../lib/upgrade/read-cluster.ts';

export default class UpgradeCheck extends AsoCommand {
  static override summary =
    'What an operator upgrade breaks, before it: removed versions and properties, with fixes';
  static override description =
    `Read-only. From the release catalog kubectl-aso ships (made from the operator's Go module): the hops from the installed release to --to, each with the kinds that lose a version, move their storage version or lose a property. Without --from it reads the cluster: the installed release (the operator's image, else its CRDs' labels), how the operator manages CRDs, and every CRD whose stored versions a hop removes (it blocks the CRD upgrade), with its object count and the kubectl aso migrate command that clears it. With -f, every manifest object that uses a version or property a hop removes or retypes (file, line, property path) and the fix. Exit ${exitCodes.upgradeBlocked.code} on blocking findings, ${exitCodes.upgradeWarnings.code} on warnings only, 0 when ready.`;
  static override examples = [
    '<%= config.bin %> upgrade-check --to v2.20.0',
    '<%= config.bin %> upgrade-check --to v2.20.0 -f manifests/ -R',
    '<%= config.bin %> upgrade-check --from v2.18.0 --to v2.20.0 -f manifests/ -R',
    '<%= config.bin %> upgrade-check --from v2.18.0 --to v2.20.0 -f app.yaml -o markdown',
  ];
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    output: Flags.option({
      char: 'o',
      options: ['table', 'wide', 'json', 'yaml', 'markdown'] as const,
      default: 'table' as const,
      description: 'output format (markdown: for a pull-request comment)',
    })(),
    to: Flags.string({ required: true, description: 'the release to upgrade to (v2.20.0)' }),
    from: Flags.string({
      description: 'the release installed now (v2.18.0); given, the cluster is not read (manifests only)',
    }),
    filename: Flags.string({
      char: 'f',
      multiple: true,
      description: 'manifests to check (repeatable; - is stdin)',
    }),
    recursive: Flags.boolean({ char: 'R', description: 'walk folders given with -f recursively' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(UpgradeCheck);
    const manifests =
      flags.filename === undefined
        ? undefined
        : readLocatedManifests({ files: flags.filename, recursive: flags.recursive }).located;
    const cluster =
      flags.from === undefined
        ? await readCluster(await connect(kubeconfigOptionsOf(flags)), flags.to)
        : undefined;
    const from = flags.from ?? cluster?.installed.release ?? '';
    const report = checkUpgrade({
      from,
      to: flags.to,
      ...(manifests ? { manifests } : {}),
      ...(cluster ? { cluster } : {}),
    });
    if (flags.output === 'markdown') process.stdout.write(upgradeCheckMarkdown(report));
    else await printResult(report, flags.output, upgradeCheckView, { color: flags.color });
    const code = exitCodes[upgradeCheckExit(report)].code;
    if (code !== 0) await this.exitAfterOutput(code);
  }
}
