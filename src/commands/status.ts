import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { parseDuration } from '../lib/duration.ts';
import { UsageError } from '../lib/errors.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { connect } from '../lib/kube/connect.ts';
import { printResult } from '../lib/render/output.ts';
import { collectStatus, defaultTuning } from '../lib/status/collect.ts';
import { exitCodeFor, type StatusReport } from '../lib/status/report.ts';
import { failOnLevels, selectionFrom, sortKeys } from '../lib/status/selection.ts';
import { statusTable } from '../lib/status/table.ts';
import { waitForReady } from '../lib/status/wait.ts';
import { runWatch } from '../lib/status/watch-view.ts';

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
      description: `exit ${exitCodes.failOn.code} when any reported resource is at this state or worse`,
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
    timeout: Flags.string({ default: '10m', description: 'how long --wait waits (e.g. 90s, 15m)' }),
  };

  async run(): Promise<StatusReport | undefined> {
    const { flags } = await this.parse(Status);
    if (flags.watch && flags.wait) throw new UsageError('--watch and --wait cannot be used together');
    const format = this.jsonEnabled() ? 'json' : flags.output;
    const timeoutMs = parseDuration(flags.timeout, 'timeout');
    const client = await connect(kubeconfigOptionsOf(flags));
    const selection = selectionFrom(flags, client.kubeconfig.namespace);
    const failOn = flags['fail-on'];
    const tuning = { pageSize: flags['chunk-size'] };
    let report: StatusReport;
    let waitTimedOut = false;
    if (flags.watch) {
      const controller = new AbortController();
      const stop = (): void => controller.abort();
      process.once('SIGINT', stop).once('SIGTERM', stop);
      const final = await runWatch(client, selection, {
        format,
        color: flags.color,
        signal: controller.signal,
        tuning,
      });
      const code = exitCodes[exitCodeFor(final)].code;
      if (code !== 0) this.exit(code);
      return undefined;
    }
    if (flags.wait) {
      const outcome = await waitForReady(client, selection, {
        timeoutMs,
        stopWhen: failOn ? (item) => item.state === 'Error' && !item.stale : undefined,
        onProgress: (notReady, total) =>
          process.stderr.write(`waiting: ${total - notReady}/${total} Ready\n`),
        tuning,
      });
      report = outcome.report;
      waitTimedOut = outcome.timedOut;
    } else {
      report = await collectStatus(client, selection, tuning);
    }
    const code = exitCodes[exitCodeFor(report, { failOn, waitTimedOut })].code;
    if (this.jsonEnabled()) {
      if (code === 0) return report;
      this.logJson(report);
    } else {
      await printResult(report, format, statusTable, { color: flags.color });
    }
    if (code !== 0) this.exit(code);
    return report;
  }
}
