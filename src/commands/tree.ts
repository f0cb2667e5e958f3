import { Args, Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { interruptSignal } from '../lib/cli/interrupt.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { type GraphReport, graphFor } from '../lib/graph/report.ts';
import { graphRequestOf } from '../lib/graph/request.ts';
import { watchGraph } from '../lib/graph/watch.ts';
import { connect } from '../lib/kube/connect.ts';
import { paletteFor } from '../lib/render/colors.ts';
import { graphDot, graphMermaid } from '../lib/render/graph-formats.ts';
import { formatResult } from '../lib/render/output.ts';
import { printable } from '../lib/render/printable.ts';
import { tableWidth } from '../lib/render/table.ts';
import { treeView, wrapWidthOf } from '../lib/render/tree-view.ts';

export default class Tree extends AsoCommand {
  static override summary =
    'ASO objects drawn as a tree: owners, references, secrets and config maps, with Ready state';
  static override description =
    'Read-only. Each object hangs under its owner (spec.owner, or a Kubernetes owner reference); what it reads or writes (resource references, secret and config-map references, *FromConfig, operatorSpec exports, all found from the CRD schemas) is listed under it. Missing owners, secrets and references are drawn, marked Missing; what RBAC hides is marked Unknown with a warning. KIND is taken as kubectl takes it: kind, plural, short name or kind.group, case-insensitive.';
  static override strict = false;
  static override args = { objects: Args.string({ description: 'KIND/NAME (repeatable)' }) };
  static override examples = [
    '<%= config.bin %> tree FlexibleServersDatabase/db -n app',
    '<%= config.bin %> tree -n app -o wide',
    '<%= config.bin %> tree -A -o dot | dot -Tsvg > graph.svg',
    '<%= config.bin %> tree -f app.yaml -o mermaid',
  ];
  static override flags = {
    ...kubeFlags,
    output: Flags.option({
      char: 'o',
      options: ['table', 'wide', 'json', 'yaml', 'dot', 'mermaid'] as const,
      default: 'table' as const,
      description: 'output format (wide: Ready messages in full, wrapped to the terminal)',
    })(),
    color: Flags.boolean({ default: true, allowNo: true, description: 'colour the output' }),
    filename: Flags.string({
      char: 'f',
      multiple: true,
      description: 'the objects of these files (repeatable)',
    }),
    recursive: Flags.boolean({ char: 'R', description: 'walk folders given with -f recursively' }),
    'all-namespaces': Flags.boolean({ char: 'A', description: 'every namespace' }),
    watch: Flags.boolean({
      char: 'w',
      description:
        'keep drawing: redraw whenever an object, secret or config map in view changes, until interrupted',
    }),
  };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(Tree);
    const objects = argv as string[];
    const select = (contextNamespace: string) => graphRequestOf({ ...flags, objects }, contextNamespace);
    select('default');
    const client = await connect(kubeconfigOptionsOf(flags));
    const request = select(client.kubeconfig.namespace);
    const format = flags.output;
    const draw = async (report: GraphReport): Promise<string> => {
      if (format === 'dot') return graphDot(report);
      if (format === 'mermaid') return graphMermaid(report);
      return formatResult(report, format, treeView(wrapWidthOf(process.stdout)), {
        palette: paletteFor(flags.color, process.stdout),
        width: tableWidth(format === 'wide', process.stdout),
        wide: format === 'wide',
      });
    };
    const warn = (message: string) => process.stderr.write(`warning: ${printable(message)}\n`);
    if (flags.watch) {
      const interrupt = interruptSignal();
      // A terminal is redrawn in place; a pipe gets each new view after a blank line.
      const clear = process.stdout.isTTY ? '\u001b[H\u001b[2J' : '';
      let views = 0;
      await watchGraph(client, request, {
        draw,
        write: (text) => process.stdout.write(`${clear}${views++ > 0 && !clear ? '\n' : ''}${text}`),
        warn,
        signal: interrupt.signal,
      }).finally(interrupt.dispose);
      return;
    }
    const report = await graphFor(client, request);
    for (const warning of report.warnings) warn(warning.message);
    process.stdout.write(await draw(report));
    if (report.warnings.length > 0) await this.exitAfterOutput(exitCodes.partial.code);
  }
}
