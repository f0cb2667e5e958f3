import type { State } from './ready-state.ts';

/**
 * What the state of an object is decided from, once its Ready condition is found: the facts every reader of
 * the classification (`readyStateOf` here, the Lua and CEL health rules for Argo CD and Flux) computes the
 * same way. Strings are `''` when the condition lacks them or holds something else than a string.
 */
export interface StateFacts {
  /** A Ready condition is present and its status is one of {@link readableStatuses}. */
  readable: boolean;
  /** The object has a deletion timestamp. */
  deleting: boolean;
  status: string;
  severity: string;
  reason: string;
}

/** The Ready condition statuses that can be read at all; any other makes the condition unreadable. */
export const readableStatuses = ['True', 'False', 'Unknown'] as const;

/** A test on the facts: every field given must hold (a list: the fact is one of its values). */
export interface StateTest {
  readable?: boolean;
  deleting?: boolean;
  status?: readonly string[];
  severity?: readonly string[];
  reason?: readonly string[];
}

/** One row of the classification: the first row whose test holds names the state. */
export interface StateRule {
  when: StateTest;
  state: State;
}

const notTrue = ['False', 'Unknown'] as const;

/**
 * The classification of `kubectl aso status`, as data, in order: kept as a table so that the health rules
 * generated for GitOps tools are emitted from the very rows `readyStateOf` applies and cannot drift from
 * it. The last row holds always.
 */
export const stateRules: readonly StateRule[] = [
  // No readable Ready condition: nothing is known but a deletion.
  { when: { readable: false, deleting: true }, state: 'Deleting' },
  { when: { readable: false }, state: 'Unknown' },
  // A failing deletion shows as the failure, so that it is not hidden behind Deleting.
  { when: { status: notTrue, severity: ['Error'] }, state: 'Error' },
  { when: { status: notTrue, severity: ['Warning'] }, state: 'Warning' },
  { when: { deleting: true }, state: 'Deleting' },
  { when: { reason: ['Deleting'] }, state: 'Deleting' },
  { when: { status: ['True'] }, state: 'Ready' },
  { when: { severity: ['Info', ''] }, state: 'Progressing' },
  // A severity this project does not know, on a condition that is not True.
  { when: {}, state: 'Unknown' },
];

/** Whether every part of `test` holds for `facts`. */
export function stateTestHolds(test: StateTest, facts: StateFacts): boolean {
  if (test.readable !== undefined && test.readable !== facts.readable) return false;
  if (test.deleting !== undefined && test.deleting !== facts.deleting) return false;
  if (test.status && !test.status.includes(facts.status)) return false;
  if (test.severity && !test.severity.includes(facts.severity)) return false;
  if (test.reason && !test.reason.includes(facts.reason)) return false;
  return true;
}

/** The state the first holding row of {@link stateRules} names. */
export function stateFromFacts(facts: StateFacts): State {
  const rule = stateRules.find((candidate) => stateTestHolds(candidate.when, facts));
  return rule?.state ?? 'Unknown';
}
