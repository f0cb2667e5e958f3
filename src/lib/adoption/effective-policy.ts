/** The reconcile policies ASO knows; the same values serve the proposed `reconcile-policy-if-exists`. */
export const reconcilePolicies = ['manage', 'detach-on-delete', 'skip'] as const;

/** One of {@link reconcilePolicies}. */
export type ReconcilePolicy = (typeof reconcilePolicies)[number];

/** The annotation the operator reads for the policy. */
export const reconcilePolicyAnnotation = 'serviceoperator.azure.com/reconcile-policy';
/** The annotation seed 001 proposes (option 4.2); the released operator ignores it. */
export const reconcilePolicyIfExistsAnnotation = 'serviceoperator.azure.com/reconcile-policy-if-exists';

/** Where an effective policy came from, so the output can say why. */
export type PolicySource = 'object' | 'namespace' | 'operator' | 'default';

/** The policy settings around one object: its Namespace's annotation and the operator's global settings. */
export interface PolicyContext {
  namespaceAnnotation?: string | undefined;
  /** `DEFAULT_RECONCILE_POLICY` in aso-controller-settings. */
  operatorDefault?: string | undefined;
  /** `RECONCILE_POLICY_IF_EXISTS` in aso-controller-settings (proposed). */
  operatorIfExists?: string | undefined;
}

/** The policies ASO would apply to one object, and where each came from. */
export interface EffectivePolicy {
  policy: ReconcilePolicy;
  policySource: PolicySource;
  /** Set only when the object or the operator asks for one (proposed behaviour). */
  ifExists?: ReconcilePolicy | undefined;
  ifExistsSource?: 'object' | 'operator' | undefined;
  /** True when the object itself sets both annotations: the proposed webhook rejects it while new. */
  bothOnObject: boolean;
}

function known(value: string | undefined): ReconcilePolicy | undefined {
  return (reconcilePolicies as readonly string[]).includes(value ?? '')
    ? (value as ReconcilePolicy)
    : undefined;
}

/**
 * The effective reconcile policy as the operator resolves it (object annotation, else the Namespace's,
 * else `DEFAULT_RECONCILE_POLICY`, else `manage`; an empty annotation counts as absent, an unknown value
 * on the object or the Namespace gives the default, not the next place), and the proposed `reconcile-policy-if-exists` (object, else `RECONCILE_POLICY_IF_EXISTS`).
 */
export function effectivePolicyOf(
  annotations: Record<string, string> | undefined,
  context: PolicyContext,
): EffectivePolicy {
  // The operator reads an empty annotation as no annotation (ASO v2.20.0 mergeReconcilePolicy: `policyStr
  // == ""` goes on to the Namespace), where a non-empty unknown value stops there and takes the default.
  const own = annotations?.[reconcilePolicyAnnotation] || undefined;
  const ownIfExists = annotations?.[reconcilePolicyIfExistsAnnotation];
  const operatorDefault = known(context.operatorDefault);
  const fallback: Pick<EffectivePolicy, 'policy' | 'policySource'> = operatorDefault
    ? { policy: operatorDefault, policySource: 'operator' }
    : { policy: 'manage', policySource: 'default' };
  let chosen = fallback;
  if (known(own)) chosen = { policy: known(own) as ReconcilePolicy, policySource: 'object' };
  else if (own === undefined && known(context.namespaceAnnotation))
    chosen = { policy: known(context.namespaceAnnotation) as ReconcilePolicy, policySource: 'namespace' };
  const result: EffectivePolicy = { ...chosen, bothOnObject: own !== undefined && ownIfExists !== undefined };
  if (known(ownIfExists)) {
    result.ifExists = known(ownIfExists);
    result.ifExistsSource = 'object';
  } else if (known(context.operatorIfExists)) {
    result.ifExists = known(context.operatorIfExists);
    result.ifExistsSource = 'operator';
  }
  return result;
}

/**
 * Why the operator's `DEFAULT_RECONCILE_POLICY` cannot be what it acts on, or undefined when it can: ASO
 * v2.20.0 validates it at start (`Values.Validate`) and exits on any non-empty value but the three
 * policies, so answers resting on it describe an operator that is not running. The value itself is not
 * repeated: it lives in a secret.
 */
export function operatorDefaultProblem(value: string | undefined, where: string): string | undefined {
  if (!value || known(value)) return undefined;
  return `DEFAULT_RECONCILE_POLICY in ${where} is not one of ${reconcilePolicies.join(', ')}: the operator refuses to start with it (answers here assume manage)`;
}
