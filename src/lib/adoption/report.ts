import type { PolicySource } from './effective-policy.ts';
import type { ArmSource } from './kind-arm.ts';
import type { Outcome } from './outcome.ts';
import type { Change } from './what-if.ts';

/** One row of the adopt-check answer: what ASO would do with one object, and why. */
export interface AdoptItem {
  namespace: string;
  kind: string;
  name: string;
  armId: string | null;
  /** true, false, or null when it could not be told. */
  exists: boolean | null;
  inferred: boolean;
  /** Where the kind's ARM shape came from. */
  source: ArmSource | null;
  reconcilePolicy: string;
  /**
   * Where the policy came from (`object`, `namespace`, `operator` for DEFAULT_RECONCILE_POLICY, `default`):
   * the place to change when the answer is not the one wanted.
   */
  reconcilePolicySource: PolicySource;
  reconcilePolicyIfExists: string | null;
  outcome: Outcome;
  reason: string;
  /** True when the answer rests on the proposed reconcile-policy-if-exists (seed 001). */
  proposed: boolean;
  changes: Change[];
  /** Spec fields the what-if could not map to the ARM body (resolved by the operator at apply time). */
  unmapped: string[];
  /**
   * Why the what-if is not known (a kind or version kubectl-aso does not generate): `changes` is then empty
   * because nothing could be compared, not because nothing would change. Absent when the what-if ran.
   */
  whatIfUnknown?: string;
}

/** The whole answer, as `-o json|yaml` prints it. */
export interface AdoptReport {
  items: AdoptItem[];
  summary: {
    total: number;
    byOutcome: Partial<Record<Outcome, number>>;
    bySource: Partial<Record<ArmSource, number>>;
    passedOver: number;
  };
  warnings: string[];
}

/** Counts per outcome and per ARM-shape source, for the summary line and CI. */
export function summaryOf(items: AdoptItem[], passedOver: number): AdoptReport['summary'] {
  const byOutcome: AdoptReport['summary']['byOutcome'] = {};
  const bySource: AdoptReport['summary']['bySource'] = {};
  for (const item of items) {
    byOutcome[item.outcome] = (byOutcome[item.outcome] ?? 0) + 1;
    if (item.source) bySource[item.source] = (bySource[item.source] ?? 0) + 1;
  }
  return { total: items.length, byOutcome, bySource, passedOver };
}

/** What `--fail-on` can match. */
export const adoptFailOn = ['adopt', 'delete-risk', 'change', 'unknown'] as const;

/** True when an item matches a `--fail-on` level. */
export function matchesFailOn(item: AdoptItem, level: (typeof adoptFailOn)[number]): boolean {
  switch (level) {
    case 'adopt':
      return item.outcome.startsWith('adopt-');
    case 'delete-risk':
      return item.outcome === 'adopt-manage';
    case 'change':
      return item.changes.length > 0;
    case 'unknown':
      return item.outcome === 'unknown' || item.whatIfUnknown !== undefined;
  }
}
