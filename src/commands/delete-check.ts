import { Args, Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { azureCredentialFlags } from '../lib/cli/azure-flags.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { deleteCheckExit } from '../lib/deletion/report.ts';
import { runDeleteCheck } from '../lib/deletion/run.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { graphRequestOf } from '../lib/graph/request.ts';
import { connect } from '../lib/kube/connect.ts';
import { deleteCheckView } from '../lib/render/delete-check-view.ts';
import { printResult } from '../lib/render/output.ts';
import { printable } from '../lib/render/printable.ts';

export default class DeleteCheck extends AsoCommand {
  static override summary = 'What a kubectl delete of these objects or this namespace would remove in Azure';
  static override description =
    `Read-only. Lists the Kubernetes cascade (the objects and every ASO object they own), each object's effective reconcile policy (manage deletes in Azure; skip and detach-on-delete keep, unless an owner deleted in Azure takes the resource along), and for each resource group that would be deleted in Azure the resources ARM lists in it that no ASO object declares: data that would be lost without anyone having declared it. Exit ${exitCodes.undeclaredLoss.code} when there are any.`;
  static override strict = false;
  static override args = { objects: Args.string({ description: 'KIND/NAME (repeatable)' }) };
  static override examples = [
    '<%= config.bin %> delete-check ResourceGroup/app-rg -n app',
    '<%= config.bin %> delete-check -n app -o json',
    '<%= config.bin %> delete-check -f app.yaml --credential local',
  ];
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    filename: Flags.string({
      char: 'f',
      multiple: true,
      description: 'the objects of these files (repeatable)',
    }),
    recursive: Flags.boolean({ char: 'R', description: 'walk folders given with -f recursively' }),
    ...azureCredentialFlags,
  };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(DeleteCheck);
    const objects = argv as string[];
    const select = (contextNamespace: string) =>
      graphRequestOf({ ...flags, objects }, contextNamespace, false);
    select('default');
    const client = await connect(kubeconfigOptionsOf(flags));
    const { resourceGroupListerOf } = await import('../lib/azure/resource-group-lister.ts');
    const report = await runDeleteCheck(client, select(client.kubeconfig.namespace), {
      operatorNamespace: flags['operator-namespace'],
      credential: flags.credential,
      listerOf: (mode, settings) => resourceGroupListerOf(mode, settings, process.env),
    });
    for (const warning of report.warnings) process.stderr.write(`warning: ${printable(warning.message)}\n`);
    await printResult(report, flags.output, deleteCheckView, { color: flags.color });
    const code = exitCodes[deleteCheckExit(report)].code;
    if (code !== 0) await this.exitAfterOutput(code);
  }
}
