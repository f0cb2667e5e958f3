import type { ExitCodeName } from '../exit-codes.ts';
import { type ReadyState, type State, stateRank, states } from './ready-state.ts';
import type { FailOn, SortKey } from './selection.ts';

/** One object in the report: where it is, what it is, and what its Ready condition says. */
export interface StatusItem extends ReadyState {
  namespace: string | null;
  kind: string;
  group: string;
  version: string;
  name: string;
}

/** Counts over the reported items. Reasons and kinds are keyed as printed; kinds as `Kind.group`. */
export interface StatusSummary {
  total: number;
  byState: Record<State, number>;
  byReason: Record<string, number>;
  byKind: Record<string, number>;
}

/** Something that could not be read: a resource type, in a namespace or across all of them. */
export interface StatusWarning {
  /** `plural.group`, as kubectl names resource types. */
  resource: string;
  kind: string;
  group: string;
  namespace: string | null;
  /** `Forbidden`, `NotFound`, or `ServerError` (a 5xx that outlived the retries). */
  reason: string;
  message: string;
}

/** What `kubectl aso status` prints with `-o json|yaml`, exactly. */
export interface StatusReport {
  items: StatusItem[];
  summary: StatusSummary;
  warnings: StatusWarning[];
}

/** A summary with every state at zero, so that JSON always carries all six. */
export function emptySummary(): StatusSummary {
  return {
    total: 0,
    byState: Object.fromEntries(states.map((state) => [state, 0])) as Record<State, number>,
    byReason: {},
    byKind: {},
  };
}

/** `Kind.group`: how the summary and `--kind` name a type without ambiguity. */
export function kindKey(item: { kind: string; group: string }): string {
  return `${item.kind}.${item.group}`;
}

/** Adds one item to the counts (or, with `delta` -1, takes it away). */
export function count(summary: StatusSummary, item: StatusItem, delta = 1): void {
  summary.total += delta;
  summary.byState[item.state] += delta;
  const reason = item.reason || '(none)';
  bump(summary.byReason, reason, delta);
  bump(summary.byKind, kindKey(item), delta);
}

function bump(counts: Record<string, number>, key: string, delta: number): void {
  const next = (counts[key] ?? 0) + delta;
  if (next === 0) delete counts[key];
  else counts[key] = next;
}

/** The counts with their keys in a stable order: most frequent first, then by name. */
export function orderedSummary(summary: StatusSummary): StatusSummary {
  const ordered = (counts: Record<string, number>): Record<string, number> =>
    Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
  return { ...summary, byReason: ordered(summary.byReason), byKind: ordered(summary.byKind) };
}

function byName(a: StatusItem, b: StatusItem): number {
  return (
    (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
    a.kind.localeCompare(b.kind) ||
    a.group.localeCompare(b.group) ||
    a.name.localeCompare(b.name)
  );
}

function transitionTime(item: StatusItem): number {
  const time = item.lastTransitionTime ? Date.parse(item.lastTransitionTime) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/**
 * Orders items in place: `namespace` (then kind, name), `kind` (then namespace, name), `state` (worst
 * first), `age` (most recent transition first; no transition last).
 */
export function sortItems(items: StatusItem[], key: SortKey): StatusItem[] {
  const compare: Record<SortKey, (a: StatusItem, b: StatusItem) => number> = {
    namespace: byName,
    kind: (a, b) => a.kind.localeCompare(b.kind) || a.group.localeCompare(b.group) || byName(a, b),
    state: (a, b) => stateRank[b.state] - stateRank[a.state] || byName(a, b),
    age: (a, b) => transitionTime(b) - transitionTime(a) || byName(a, b),
  };
  return items.sort(compare[key]);
}

/** Whether an item is at the `--fail-on` level or worse. */
export function failsOn(item: Pick<StatusItem, 'state'>, level: FailOn): boolean {
  switch (level) {
    case 'error':
      return item.state === 'Error';
    case 'warning':
      return item.state === 'Error' || item.state === 'Warning';
    case 'not-ready':
      return item.state !== 'Ready';
  }
}

/**
 * The exit code a report earns: `--fail-on` matching first (with `--wait`, judged on the final state), then
 * `--wait` timing out, then anything that could not be read (partial), else success.
 */
export function exitCodeFor(
  report: StatusReport,
  options: { failOn?: FailOn | undefined; waitTimedOut?: boolean } = {},
): ExitCodeName {
  const { failOn } = options;
  if (failOn && report.items.some((item) => failsOn(item, failOn))) return 'failOn';
  if (options.waitTimedOut) return 'waitTimeout';
  if (report.warnings.length > 0) return 'partial';
  return 'ok';
}
