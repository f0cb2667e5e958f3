import type { OutputFormat } from '../cli/output-flags.ts';
import { parseDuration } from '../duration.ts';
import { UsageError } from '../errors.ts';
import type { ListTuning } from './collect.ts';
import type { FailOn } from './selection.ts';

/** What `status` does: read once, keep a live view (`--watch`), or block until all is Ready (`--wait`). */
export type StatusMode = 'once' | 'watch' | 'wait';

/** How `--wait` waits when `--timeout` is not given. */
export const defaultWaitTimeout = '10m';

/** Everything about a `status` run that does not depend on the cluster, checked before connecting. */
export interface StatusPlan {
  mode: StatusMode;
  format: OutputFormat;
  color: boolean;
  /** How long `--wait` waits; 0 checks once. */
  timeoutMs: number;
  /** Judged at the end of every mode; `--wait` also stops at once on an Error that is not stale. */
  failOn: FailOn | undefined;
  tuning: ListTuning;
}

/** The flags a plan is made from, as the command parses them. */
export interface PlanFlags {
  watch?: boolean | undefined;
  wait?: boolean | undefined;
  timeout?: string | undefined;
  'fail-on'?: FailOn | undefined;
  output: OutputFormat;
  color: boolean;
  'chunk-size': number;
}

/**
 * The plan the flags describe. `--watch` with `--wait` is a usage error, and so is `--timeout` without
 * `--wait` (it would silently do nothing).
 */
export function statusPlanOf(flags: PlanFlags, json: boolean): StatusPlan {
  if (flags.watch && flags.wait) throw new UsageError('--watch and --wait cannot be used together');
  if (flags.timeout !== undefined && !flags.wait) {
    throw new UsageError('--timeout only applies to --wait');
  }
  return {
    mode: flags.watch ? 'watch' : flags.wait ? 'wait' : 'once',
    format: json ? 'json' : flags.output,
    color: flags.color,
    timeoutMs: parseDuration(flags.timeout ?? defaultWaitTimeout, 'timeout'),
    failOn: flags['fail-on'],
    tuning: { pageSize: flags['chunk-size'] },
  };
}
