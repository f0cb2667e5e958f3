import { argoCdHealthRules } from '../../../src/lib/health-rules/argocd.ts';
import { fluxHealthRules } from '../../../src/lib/health-rules/flux.ts';
import type { RuleKind } from '../../../src/lib/health-rules/kinds.ts';
import { verdictOf } from '../../../src/lib/health-rules/verdicts.ts';
import type { EvaluatedRule, ToolVerdict } from '../../fixtures/gitops-evaluator.ts';

/**
 * The bridge between the command's output and the tools' interpreters, shared by the agreement tests and the
 * test on the operator's own conditions.
 */

/** The rules exactly as the command prints them, one per kind. */
export function rulesOf(kinds: RuleKind[]): EvaluatedRule[] {
  const argo = argoCdHealthRules(kinds, 'configmap');
  if (!('data' in argo)) throw new Error('expected the ConfigMap layout');
  const flux = fluxHealthRules(kinds).spec.healthCheckExprs;
  return kinds.map((kind, index) => {
    const entry = flux[index];
    if (!entry || entry.kind !== kind.kind) throw new Error(`no Flux entry for ${kind.kind}`);
    return {
      id: `${kind.group}_${kind.kind}`,
      lua: argo.data[`resource.customizations.health.${kind.group}_${kind.kind}`] ?? '',
      cel: { current: entry.current, inProgress: entry.inProgress, failed: entry.failed },
    };
  });
}

/** What the tools must answer for `object`, or why not, as one comparable line. */
export function agreement(object: Record<string, unknown>, verdict: ToolVerdict): string[] {
  const expected = verdictOf(object);
  const problems: string[] = [];
  if (verdict.argocdError) problems.push(`Argo CD: ${verdict.argocdError}`);
  else if (verdict.argocd !== expected.argocd || verdict.argocdMessage !== expected.message)
    problems.push(
      `Argo CD: ${verdict.argocd} "${verdict.argocdMessage}", status says ${expected.argocd} "${expected.message}"`,
    );
  // Without a `status` field Flux's variable is unbound and every expression fails to evaluate: kstatus reports
  // the object Unknown and Flux keeps waiting, as for inProgress.
  if (!('status' in object)) {
    if (!/no such attribute/.test(verdict.fluxError ?? '') || expected.flux !== 'inProgress')
      problems.push(`Flux without status: ${verdict.flux || verdict.fluxError}, expected an unbound status`);
  } else if (verdict.fluxError) problems.push(`Flux: ${verdict.fluxError}`);
  else if (verdict.flux !== expected.flux)
    problems.push(`Flux: ${verdict.flux}, status says ${expected.flux}`);
  return problems;
}
