import type { KubeClient } from '../kube/client.ts';
import {
  type ArgoCdConfigMapPatch,
  type ArgoCdHelmValues,
  type ArgoCdLayout,
  argoCdHealthRules,
} from './argocd.ts';
import { type FluxHealthRules, fluxHealthRules } from './flux.ts';
import { installedKinds, type RuleKind, releaseKinds } from './kinds.ts';

/** Which tool the rules are for, and for Argo CD where they go. */
export type HealthRulesTarget = { tool: 'argocd'; layout: ArgoCdLayout } | { tool: 'flux' };

/** Where the kinds come from: the cluster's installed CRDs, or a release's CRD files. */
export type KindSource = (
  | { from: 'cluster'; connect: () => Promise<KubeClient> }
  | { from: 'crds'; dir: string }
) & {
  /** `--kind` patterns; none selects every kind. */
  kinds: readonly string[];
};

/** What `kubectl aso health-rules` prints with `-o yaml|json`, exactly. */
export type HealthRules = ArgoCdConfigMapPatch | ArgoCdHelmValues | FluxHealthRules;

/** The kinds from their source; only the cluster source connects. */
export async function kindsFrom(source: KindSource): Promise<RuleKind[]> {
  return source.from === 'crds'
    ? releaseKinds(source.dir, source.kinds)
    : installedKinds(await source.connect(), source.kinds);
}

/** The health rules for the target tool, for every kind of the source. */
export async function healthRules(source: KindSource, target: HealthRulesTarget): Promise<HealthRules> {
  const kinds = await kindsFrom(source);
  return target.tool === 'flux' ? fluxHealthRules(kinds) : argoCdHealthRules(kinds, target.layout);
}
