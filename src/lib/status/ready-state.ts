import { readableStatuses, stateFromFacts } from './state-rules.ts';

/**
 * How an ASO object's Ready condition reads as one state. ASO v2 reports the operator's view of every
 * resource through a single `Ready` condition whose severity says whether a failure is final (Error: the
 * operator gave up until the object changes), retried (Warning) or just progress (Info).
 */

/** The states, best first; `stateRank` orders them worst first for sorting and `--fail-on`. */
export const states = ['Ready', 'Progressing', 'Deleting', 'Unknown', 'Warning', 'Error'] as const;

/** One of {@link states}. */
export type State = (typeof states)[number];

/** How bad a state is: higher is worse. */
export const stateRank: Record<State, number> = {
  Ready: 0,
  Progressing: 1,
  Deleting: 2,
  Unknown: 3,
  Warning: 4,
  Error: 5,
};

/** What the Ready condition of one object says, with the object's own deletion and generation folded in. */
export interface ReadyState {
  state: State;
  /**
   * The condition describes an older spec: its observedGeneration is below metadata.generation. Never set
   * on an object being deleted, whose generation the deletion itself bumped.
   */
  stale: boolean;
  /** Ready at the current generation: state Ready and not stale. What `--wait` waits for. */
  ready: boolean;
  /** The condition's severity as written (`Error`, `Warning`, `Info`, or empty). */
  severity: string;
  reason: string;
  message: string;
  lastTransitionTime: string | null;
}

/** The parts of an object the state is read from. Everything is optional: objects are read as found. */
export interface ConditionedObject {
  metadata?: { generation?: number; deletionTimestamp?: string };
  status?: unknown;
}

interface Condition {
  type?: unknown;
  status?: unknown;
  severity?: unknown;
  reason?: unknown;
  message?: unknown;
  lastTransitionTime?: unknown;
  observedGeneration?: unknown;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function readyConditionOf(status: unknown): Condition | undefined {
  if (typeof status !== 'object' || status === null) return undefined;
  const conditions = (status as { conditions?: unknown }).conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find(
    (condition): condition is Condition =>
      typeof condition === 'object' && condition !== null && (condition as Condition).type === 'Ready',
  );
}

/**
 * The state of one object, by the rows of `stateRules` (state-rules.ts), in order:
 * - no Ready condition (or one whose status is not True, False or Unknown): `Unknown`, or `Deleting` when
 *   the object has a deletion timestamp;
 * - not True with severity Error: `Error`; with severity Warning: `Warning` (a deletion that is failing
 *   shows as the failure, so that it is not hidden behind `Deleting`);
 * - a deletion timestamp, or reason `Deleting`: `Deleting`;
 * - True: `Ready`;
 * - False or Unknown with severity Info or none: `Progressing`;
 * - an unrecognised severity on a condition that is not True: `Unknown`.
 */
export function readyStateOf(object: ConditionedObject): ReadyState {
  const deleting = typeof object.metadata?.deletionTimestamp === 'string';
  const condition = readyConditionOf(object.status);
  const status = text(condition?.status);
  const severity = text(condition?.severity);
  const reason = text(condition?.reason);
  const observed = condition?.observedGeneration;
  const generation = object.metadata?.generation;
  // Setting a deletion timestamp bumps metadata.generation without a new spec: not a reason to call it stale.
  const stale =
    !deleting && typeof observed === 'number' && typeof generation === 'number'
      ? observed < generation
      : false;
  const readable = condition !== undefined && (readableStatuses as readonly string[]).includes(status);
  const state = stateFromFacts({ readable, deleting, status, severity, reason });
  return {
    state,
    stale,
    ready: state === 'Ready' && !stale,
    severity,
    reason,
    message: text(condition?.message),
    lastTransitionTime: text(condition?.lastTransitionTime) || null,
  };
}
