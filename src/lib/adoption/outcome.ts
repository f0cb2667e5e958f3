import type { EffectivePolicy } from './effective-policy.ts';

/** What ASO would do with one object on `kubectl apply`. */
export const outcomes = [
  'create',
  'adopt-manage',
  'adopt-detach-on-delete',
  'skip-exists',
  'skip-missing',
  'already-managed',
  'rejected',
  'unknown',
] as const;

/** One of {@link outcomes}. */
export type Outcome = (typeof outcomes)[number];

/** What is known of the Azure side of one object. */
export type Existence =
  | { state: 'exists' }
  | { state: 'missing' }
  | { state: 'parent-missing'; parentCreatedHere: boolean; code: string }
  | { state: 'unknown'; reason: string };

/** The answer for one object, with the reason a person reads. */
export interface OutcomeAnswer {
  outcome: Outcome;
  reason: string;
  /** True when the answer rests on the proposed `reconcile-policy-if-exists` (seed 001, not released). */
  proposed: boolean;
}

/**
 * Seed 001's table, in one place: the effective policy, the proposed `-if-exists` override and whether
 * the resource exists give the outcome. It exists so the loud case (adopting an existing resource under
 * `manage`, which a later `kubectl delete` deletes in Azure) is decided once and said plainly.
 */
export function outcomeOf(
  policy: EffectivePolicy,
  existence: Existence,
  alreadyManagedId?: string,
): OutcomeAnswer {
  if (alreadyManagedId !== undefined) {
    return {
      outcome: 'already-managed',
      reason: `already managed by ASO in this cluster (${alreadyManagedId})`,
      proposed: false,
    };
  }
  if (policy.bothOnObject) {
    return {
      outcome: 'rejected',
      reason:
        'a new object carrying both reconcile-policy and reconcile-policy-if-exists is rejected (seed 001 webhook)',
      proposed: true,
    };
  }
  if (existence.state === 'unknown') return { outcome: 'unknown', reason: existence.reason, proposed: false };
  const exists = existence.state === 'exists';
  const applied = exists && policy.ifExists ? policy.ifExists : policy.policy;
  const proposed = exists && policy.ifExists !== undefined;
  const label = proposed
    ? ` (reconcile-policy-if-exists=${policy.ifExists} from ${policy.ifExistsSource}, proposed in seed 001)`
    : '';
  if (!exists) {
    if (applied === 'skip') {
      return {
        outcome: 'skip-missing',
        reason: 'nothing will be created; ASO will report AzureResourceNotFound',
        proposed: false,
      };
    }
    if (existence.state === 'parent-missing') {
      const reason = existence.parentCreatedHere
        ? `parent does not exist yet (${existence.code}); it is created from the same files`
        : `parent does not exist (${existence.code}) and is not in the given files; ASO will wait for it`;
      return { outcome: 'create', reason, proposed: false };
    }
    return { outcome: 'create', reason: 'does not exist in Azure; ASO will create it', proposed: false };
  }
  if (applied === 'skip')
    return { outcome: 'skip-exists', reason: `exists; ASO will only read it${label}`, proposed };
  if (applied === 'detach-on-delete') {
    return {
      outcome: 'adopt-detach-on-delete',
      reason: `exists; ASO will adopt and modify it, never delete it${label}`,
      proposed,
    };
  }
  return {
    outcome: 'adopt-manage',
    reason: `exists; ASO will adopt it and kubectl delete will DELETE this existing resource in Azure${label}`,
    proposed,
  };
}
