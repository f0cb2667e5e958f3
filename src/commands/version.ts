import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { printResult } from '../lib/render/output.ts';
import { collectVersions, type VersionReport, versionText } from '../lib/version/versions.ts';

export default class Version extends AsoCommand {
  static override summary = 'Print the plugin version and, when a cluster is reachable, the server version';
  static override enableJsonFlag = true;
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    client: Flags.boolean({ description: 'print only the plugin version; do not contact the cluster' }),
  };

  async run(): Promise<VersionReport> {
    const { flags } = await this.parse(Version);
    const { report, failure } = await collectVersions(
      this.config.version,
      flags.client,
      kubeconfigOptionsOf(flags),
    );
    if (!this.jsonEnabled()) await printResult(report, flags.output, versionText, { color: flags.color });
    if (failure) {
      if (this.jsonEnabled()) this.logJson(report);
      process.stderr.write(`error: cannot read the server version: ${report.serverError}\n`);
      this.exit(exitCodes[failure].code);
    }
    return report;
  }
}
