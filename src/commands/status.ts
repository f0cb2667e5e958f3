import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { interruptSignal } from '../lib/cli/interrupt.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { connect } from '../lib/kube/connect.ts';
import { printResult } from '../lib/render/output.ts';
import { statusTable } from '../lib/render/status-table.ts';
import { defaultTuning } from '../lib/status/collect.ts';
import { defaultWaitTimeout, statusPlanOf } from '../lib/status/plan.ts';
import type { StatusReport } from '../lib/status/report.ts';
import { runStatus } from '../lib/status/run.ts';
import { failOnLevels, selectionCheckedFrom, sortKeys } from '../lib/status/selection.ts';

export default class Status extends AsoCommand {
  static override summary = "Every ASO resource's Ready condition across namespaces, summarised";
  static override description =
    'States: Ready, Progressing (working on it), Warning (the operator keeps retrying), Error (the operator gave up until the object changes), Deleting, Unknown (no Ready condition yet). "(stale)" marks a condition older than the object\'s spec.';
  static override enableJsonFlag = true;
  static override examples = [
    '<%= config.bin %> status -A',
    '<%= config.bin %> status -A --not-ready --sort state',
    '<%= config.bin %> status -n prod --kind ResourceGroup --kind flexibleservers.dbforpostgresql.azure.com',
    '<%= config.bin %> status -A --fail-on error -o json',
    'kubectl apply -f app.yaml && <%= config.bin %> status -n app --wait --timeout 15m',
  ];
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    'all-namespaces': Flags.boolean({ char: 'A', description: 'every namespace' }),
    selector: Flags.string({ char: 'l', description: 'label selector, e.g. app=web,tier!=db' }),
    kind: Flags.string({
      multiple: true,
      description: 'only this kind: kind, plural, short name or kind.group, case-insensitive (repeatable)',
    }),
    state: Flags.string({
      multiple: true,
      description:
        'only these states, e.g. error,warning (ready, progressing, warning, error, deleting, unknown)',
    }),
    'not-ready': Flags.boolean({ description: 'every state but Ready' }),
    sort: Flags.option({
      options: sortKeys,
      default: 'namespace' as const,
      description: 'order of the rows',
    })(),
    watch: Flags.boolean({
      char: 'w',
      description: 'keep the view current from watch events until interrupted',
    }),
    'fail-on': Flags.option({
      options: failOnLevels,
      description: `exit ${exitCodes.failOn.code} when any reported resource is at this state or worse (with --watch: at exit; with --wait: at the end, or at once on an Error that is not stale)`,
    })(),
    wait: Flags.boolean({
      description: `block until every selected resource is Ready (and not stale); exit ${exitCodes.waitTimeout.code} on --timeout`,
    }),
    'chunk-size': Flags.integer({
      min: 1,
      default: defaultTuning.pageSize,
      description: 'objects per list request, as in kubectl',
      helpGroup: 'CLUSTER',
    }),
    timeout: Flags.string({
      description: `how long --wait waits (e.g. 90s, 15m; default ${defaultWaitTimeout}); 0 checks once`,
    }),
  };

  async run(): Promise<StatusReport | undefined> {
    const { flags } = await this.parse(Status);
    const plan = statusPlanOf(flags, this.jsonEnabled());
    const selectionIn = selectionCheckedFrom(flags);
    const client = await connect(kubeconfigOptionsOf(flags));
    const selection = selectionIn(client.kubeconfig.namespace);
    // Only --watch stops cleanly on a signal; a single read or --wait dies of it (exit 130 or 143).
    const interrupt = plan.mode === 'watch' ? interruptSignal() : undefined;
    const { report, exit } = await runStatus(
      client,
      selection,
      plan,
      interrupt ? { signal: interrupt.signal } : {},
    ).finally(() => interrupt?.dispose());
    const code = exitCodes[exit].code;
    if (report && this.jsonEnabled()) {
      if (code === 0) return report;
      this.logJson(report);
    } else if (report) {
      await printResult(report, plan.format, statusTable, { color: plan.color });
    }
    if (code !== 0) await this.exitAfterOutput(code);
    return report;
  }
}
