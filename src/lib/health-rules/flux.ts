import { celVerdictExpression } from './cel.ts';
import type { RuleKind } from './kinds.ts';

/** One entry of a Flux Kustomization's `spec.healthCheckExprs`. */
export interface FluxHealthCheckExpr {
  apiVersion: string;
  kind: string;
  inProgress: string;
  failed: string;
  current: string;
}

/** The health checks as a merge patch of a Kustomization: `spec.healthCheckExprs`, one entry per kind. */
export interface FluxHealthRules {
  spec: { healthCheckExprs: FluxHealthCheckExpr[] };
}

/**
 * Flux health checks for the kinds, in their order. The three expressions are the same for every kind;
 * each holds for exactly one verdict, so Flux's evaluation order cannot change the answer.
 */
export function fluxHealthRules(kinds: readonly RuleKind[]): FluxHealthRules {
  const inProgress = celVerdictExpression('inProgress');
  const failed = celVerdictExpression('failed');
  const current = celVerdictExpression('current');
  return {
    spec: {
      healthCheckExprs: kinds.map((kind) => ({
        apiVersion: `${kind.group}/${kind.version}`,
        kind: kind.kind,
        inProgress,
        failed,
        current,
      })),
    },
  };
}
