import { type ConditionedObject, type ReadyState, readyStateOf, type State } from '../status/ready-state.ts';

/** What Argo CD's health assessment accepts from a Lua script (`Missing` is Argo CD's own: no object). */
export type ArgoCdHealth = 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended';

/**
 * Flux's verdicts for a `healthCheckExprs` entry: the name of the expression that holds. Flux evaluates
 * `inProgress`, then `failed`, then `current`, and calls an object in progress when none holds.
 */
export type FluxVerdict = 'current' | 'inProgress' | 'failed';

/** The annotation by which a user tells the operator to leave the Azure resource alone (value `skip`). */
export const reconcilePolicyAnnotation = 'serviceoperator.azure.com/reconcile-policy';

/** What a verdict is decided from: the `status` classification plus the object's own reconcile policy. */
export interface VerdictFacts {
  state: State;
  stale: boolean;
  /** The object carries reconcile-policy `skip` (a namespace's or the operator's default is not visible). */
  skip: boolean;
}

/** A test on {@link VerdictFacts}: every field given must hold. */
export interface VerdictTest {
  stale?: boolean;
  skip?: boolean;
  state?: readonly State[];
}

/** One row of the mapping from `status`'s classification to the GitOps tools' verdicts. */
export interface VerdictRule {
  when: VerdictTest;
  argocd: ArgoCdHealth;
  flux: FluxVerdict;
}

/**
 * How `status`'s states become Argo CD and Flux verdicts, first holding row wins. The rows, and why:
 * - stale (the condition describes an older spec): in progress whatever it says, as `status --wait` waits
 *   for it; a sync that has just applied a fix must not fail on the failure it fixes;
 * - Error: the operator gave up until the object changes: Degraded, and Flux fails the sync at once;
 * - Warning: the operator keeps retrying, and most Warning reasons (WaitingForOwner, ReferenceNotFound,
 *   SecretNotFound, ...) clear by themselves when a sync applies an owner with its children: in progress,
 *   with the reason in Argo CD's message; Flux's timeout still fails a Warning that never clears;
 * - Deleting, Unknown (no Ready condition yet), Progressing: in progress;
 * - Ready with reconcile-policy `skip`: the operator writes Ready=True at the current generation after
 *   reading the Azure resource and never changes it, so Argo CD shows it as Suspended (there, but not
 *   managed); Flux has no such verdict and a skipped object is as done as it will get: current;
 * - Ready: Healthy / current.
 */
export const verdictRules: readonly VerdictRule[] = [
  { when: { stale: true }, argocd: 'Progressing', flux: 'inProgress' },
  { when: { state: ['Error'] }, argocd: 'Degraded', flux: 'failed' },
  { when: { state: ['Warning'] }, argocd: 'Progressing', flux: 'inProgress' },
  { when: { state: ['Deleting', 'Unknown', 'Progressing'] }, argocd: 'Progressing', flux: 'inProgress' },
  { when: { state: ['Ready'], skip: true }, argocd: 'Suspended', flux: 'current' },
  { when: { state: ['Ready'] }, argocd: 'Healthy', flux: 'current' },
];

/** What a rule set answers when no row holds (the rows cover every state, so only a new state gets here). */
export const noRuleVerdict: Omit<VerdictRule, 'when'> = { argocd: 'Progressing', flux: 'inProgress' };

/** Whether every part of `test` holds for `facts`. */
export function verdictTestHolds(test: VerdictTest, facts: VerdictFacts): boolean {
  if (test.stale !== undefined && test.stale !== facts.stale) return false;
  if (test.skip !== undefined && test.skip !== facts.skip) return false;
  if (test.state && !test.state.includes(facts.state)) return false;
  return true;
}

/** Whether the object itself carries reconcile-policy `skip`. */
export function skipsReconcile(object: { metadata?: { annotations?: unknown } }): boolean {
  const annotations = object.metadata?.annotations;
  if (typeof annotations !== 'object' || annotations === null) return false;
  return (annotations as Record<string, unknown>)[reconcilePolicyAnnotation] === 'skip';
}

/** The message a rule set shows with its verdict: `State[ (stale)][ (reconcile-policy skip)]: reason: message`. */
export function verdictMessage(ready: ReadyState, skip: boolean): string {
  const label = `${ready.state}${ready.stale ? ' (stale)' : ''}${skip ? ' (reconcile-policy skip)' : ''}`;
  return [label, ready.reason, ready.message].filter((part) => part !== '').join(': ');
}

/** The verdicts the generated rules must reach for one object: the reference the rule tests hold them to. */
export interface ExpectedVerdict {
  argocd: ArgoCdHealth;
  flux: FluxVerdict;
  message: string;
}

/** The verdicts for one object, from `readyStateOf` and {@link verdictRules}. */
export function verdictOf(
  object: ConditionedObject & { metadata?: { annotations?: unknown } },
): ExpectedVerdict {
  const ready = readyStateOf(object);
  const skip = skipsReconcile(object);
  const facts = { state: ready.state, stale: ready.stale, skip };
  const rule = verdictRules.find((candidate) => verdictTestHolds(candidate.when, facts)) ?? noRuleVerdict;
  return { argocd: rule.argocd, flux: rule.flux, message: verdictMessage(ready, skip) };
}
