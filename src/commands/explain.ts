import { Args } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { explain, explainExit } from '../lib/explain/explain.ts';
import { graphFor } from '../lib/graph/report.ts';
import { graphRequestOf } from '../lib/graph/request.ts';
import { connect } from '../lib/kube/connect.ts';
import { explainView } from '../lib/render/explain-view.ts';
import { printResult } from '../lib/render/output.ts';
import { printable } from '../lib/render/printable.ts';
import { wrapWidthOf } from '../lib/render/tree-view.ts';

export default class Explain extends AsoCommand {
  static override summary =
    'Why an ASO object is not Ready: the first object down its graph whose problem is its own';
  static override description =
    `Read-only. Follows what the object waits for (owner, references, secrets, config maps) while its reason is one of the operator's precondition reasons, to the first node whose problem is its own, and says what failed (the condition's message in full), how the operator's code classes it, whether the operator retries it, and the next step. Exit ${exitCodes.causeMissing.code} missing, ${exitCodes.causeRetrying.code} retried, ${exitCodes.causeFatal.code} given up on; 0 when Ready or progressing.`;
  static override args = { object: Args.string({ description: 'KIND/NAME', required: true }) };
  static override examples = ['<%= config.bin %> explain FlexibleServersDatabase/db -n app'];
  static override flags = { ...kubeFlags, ...outputFlags };

  async run(): Promise<void> {
    const { flags, args } = await this.parse(Explain);
    const select = (contextNamespace: string) =>
      graphRequestOf({ ...flags, objects: [args.object] }, contextNamespace);
    select('default');
    const client = await connect(kubeconfigOptionsOf(flags));
    const graph = await graphFor(client, select(client.kubeconfig.namespace));
    for (const warning of graph.warnings) process.stderr.write(`warning: ${printable(warning.message)}\n`);
    const explanation = explain(graph, graph.targets[0] as string);
    await printResult(explanation, flags.output, explainView(wrapWidthOf(process.stdout)), {
      color: flags.color,
    });
    const code = exitCodes[explainExit(explanation)].code;
    if (code !== 0) await this.exitAfterOutput(code);
  }
}
