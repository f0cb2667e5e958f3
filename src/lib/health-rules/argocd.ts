import type { RuleKind } from './kinds.ts';
import { luaHealthScript } from './lua.ts';

/** The two places Argo CD's settings are written: the `argocd-cm` ConfigMap, or the Helm chart's values. */
export type ArgoCdLayout = 'configmap' | 'helm-values';

/** `argocd-cm` with the health rules under `data`: a ConfigMap to merge into the installed one. */
export interface ArgoCdConfigMapPatch {
  apiVersion: 'v1';
  kind: 'ConfigMap';
  metadata: { name: 'argocd-cm'; labels: Record<string, string> };
  data: Record<string, string>;
}

/** The argo-cd Helm chart's values that put the health rules into `argocd-cm`. */
export interface ArgoCdHelmValues {
  configs: { cm: Record<string, string> };
}

/** Argo CD's settings key for the health rule of one kind: `resource.customizations.health.<group>_<Kind>`. */
export function argoCdHealthKey(kind: RuleKind): string {
  return `resource.customizations.health.${kind.group}_${kind.kind}`;
}

/**
 * One health-rule entry per kind, in the kinds' order. Keys per kind rather than one wildcard
 * (`*.azure.com_*`), which some managed Argo CD installations refuse.
 */
export function argoCdHealthEntries(kinds: readonly RuleKind[]): Record<string, string> {
  const script = luaHealthScript();
  return Object.fromEntries(kinds.map((kind) => [argoCdHealthKey(kind), script]));
}

/** The health rules in the layout asked for. */
export function argoCdHealthRules(
  kinds: readonly RuleKind[],
  layout: ArgoCdLayout,
): ArgoCdConfigMapPatch | ArgoCdHelmValues {
  const entries = argoCdHealthEntries(kinds);
  if (layout === 'helm-values') return { configs: { cm: entries } };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'argocd-cm',
      labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' },
    },
    data: entries,
  };
}
