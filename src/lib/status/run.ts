import { NothingSelected } from '../errors.ts';
import type { ExitCodeName } from '../exit-codes.ts';
import type { KubeClient } from '../kube/client.ts';
import { printable } from '../render/printable.ts';
import { runWatch } from '../render/status-watch.ts';
import { collectStatus } from './collect.ts';
import type { StatusPlan } from './plan.ts';
import { exitCodeFor, type StatusReport, type StatusWarning } from './report.ts';
import { describeSelection, type StatusSelection } from './selection.ts';
import { waitForReady } from './wait.ts';

/** What a `status` run ends with: the report still to be printed (none after `--watch`), and its exit code. */
export interface StatusOutcome {
  report: StatusReport | undefined;
  exit: ExitCodeName;
}

/**
 * Where a run writes what is not its result (progress and warnings as they happen), and the signal that
 * ends a `--watch` (the command layer ties it to SIGINT and SIGTERM).
 */
export interface StatusStreams {
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WritableStream;
  signal?: AbortSignal;
}

function warn(stderr: NodeJS.WritableStream): (warning: StatusWarning) => void {
  return (warning) => stderr.write(`warning: ${printable(warning.message)}\n`);
}

/**
 * Runs `status` as planned. Once: reads every selected object. `--wait`: reports progress on stderr and
 * waits. `--watch`: prints as it goes until `streams.signal` aborts, then returns no report. The exit code
 * follows {@link exitCodeFor}, `--fail-on` included in every mode.
 */
export async function runStatus(
  client: KubeClient,
  selection: StatusSelection,
  plan: StatusPlan,
  streams: StatusStreams = {},
): Promise<StatusOutcome> {
  const stderr = streams.stderr ?? process.stderr;
  const failOn = plan.failOn;
  if (plan.mode === 'watch') {
    const final = await runWatch(client, selection, {
      format: plan.format,
      color: plan.color,
      signal: streams.signal ?? new AbortController().signal,
      tuning: plan.tuning,
      errors: stderr,
      ...(streams.stdout ? { stream: streams.stdout } : {}),
    });
    return { report: undefined, exit: exitCodeFor(final, { failOn }) };
  }
  if (plan.mode === 'wait') {
    const { report, timedOut, selected } = await waitForReady(client, selection, {
      timeoutMs: plan.timeoutMs,
      // Only an Error the operator reported for the current spec is final; the rest is judged at the end.
      stopWhen: failOn ? (item) => item.state === 'Error' && !item.stale : undefined,
      onProgress: (notReady, total) => stderr.write(`waiting: ${total - notReady}/${total} Ready\n`),
      onWarning: warn(stderr),
      tuning: plan.tuning,
    });
    // With warnings some types could not be read, so "nothing matched" is not known: that stays partial.
    if (selected === 0 && report.warnings.length === 0) {
      throw new NothingSelected(describeSelection(selection));
    }
    return { report, exit: exitCodeFor(report, { failOn, waitTimedOut: timedOut }) };
  }
  const report = await collectStatus(client, selection, plan.tuning);
  return { report, exit: exitCodeFor(report, { failOn }) };
}
