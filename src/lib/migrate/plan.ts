import type { KubeClient } from '../kube/client.ts';
import { ApiError } from '../kube/errors.ts';
import { listPages } from '../kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../kube/paths.ts';
import { type Crd, servedVersionsOf, storageVersionOf } from './crds.ts';
import type { CrdPlan, MigrationPlan, StrategyChoice } from './plan-types.ts';
import { lastSpecChange } from './settle.ts';
import { resolveTarget, type TargetSpec } from './target.ts';

/** Why client-side conversion is refused: it is designed (issue 10) but waits on issue 8. */
export const clientStrategyUnavailable =
  "client-side conversion is not available yet (unfinished: it waits on conversions proven identical to the operator's, issue 8)";

/** What a plan is made from besides the CRDs. */
export interface PlanOptions {
  target: TargetSpec;
  targetText: string;
  strategy: StrategyChoice;
  pageSize: number;
}

/** True for the API server's answer when a conversion webhook failed or refused a version. */
export function isConversionFailure(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 500 && /conver/i.test(error.message);
}

/**
 * Plans every CRD: resolves the target, compares it with the storage version, and counts the objects that
 * may still be stored at old versions. Counting reads at the target version, so it is also a first probe
 * of the server-side strategy: a conversion webhook that cannot convert what it reads fails it, and the
 * CRD is then planned `unavailable` (auto: it would need client-side conversion) or `skip` (server). The
 * probe is not conclusive (a list may be answered from the watch cache, converted long ago), so the run
 * also judges the conversion failures of its writes (see `runMigration`).
 */
export async function planMigration(
  client: KubeClient,
  crds: Crd[],
  options: PlanOptions,
): Promise<MigrationPlan> {
  const plans: CrdPlan[] = [];
  for (const crd of crds) plans.push(await planCrd(client, crd, options));
  return { target: options.targetText, crds: plans, warnings: [] };
}

async function planCrd(client: KubeClient, crd: Crd, options: PlanOptions): Promise<CrdPlan> {
  const versions = crd.spec.versions.map((version) => version.name);
  const servedVersions = servedVersionsOf(crd);
  const storageVersion = storageVersionOf(crd) ?? '';
  const storedVersions = crd.status?.storedVersions ?? [];
  const resolved = resolveTarget(options.target, versions);
  const target = resolved.version;
  const accessVersion =
    target && servedVersions.includes(target) ? target : (servedVersions.at(-1) ?? storageVersion);
  const base: CrdPlan = {
    name: crd.metadata.name,
    kind: crd.spec.names.kind,
    namespaced: crd.spec.scope === 'Namespaced',
    uid: crd.metadata.uid ?? '',
    generation: crd.metadata.generation ?? 0,
    specChangedAt: lastSpecChange(crd),
    servedVersions,
    storageVersion,
    storedVersions,
    target,
    action: 'skip',
    strategy: 'none',
    reason: undefined,
    objectsToCheck: undefined,
    access: { group: crd.spec.group, version: accessVersion, plural: crd.spec.names.plural },
  };
  if (target === undefined) return { ...base, reason: 'reason' in resolved ? resolved.reason : undefined };
  if (target !== storageVersion) {
    return {
      ...base,
      reason: `--to ${options.targetText} is ${target}, but the storage version is ${storageVersion}: the operator's install sets the storage version, so nothing is written`,
    };
  }
  if (storedVersions.length === 1 && storedVersions[0] === target) {
    return { ...base, action: 'clean', objectsToCheck: 0 };
  }
  if (options.strategy === 'client') {
    return { ...base, action: 'unavailable', strategy: 'client', reason: clientStrategyUnavailable };
  }
  try {
    const count = await countObjects(client, base.access, options.pageSize);
    const note =
      accessVersion === target
        ? undefined
        : `the storage version is not served; objects are written at ${accessVersion}`;
    return { ...base, action: 'migrate', strategy: 'server', objectsToCheck: count, reason: note };
  } catch (error) {
    if (!isConversionFailure(error)) throw error;
    if (options.strategy === 'auto') {
      return {
        ...base,
        action: 'unavailable',
        strategy: 'client',
        reason: `the API server cannot convert every object (${error.message}); it needs client-side conversion, and ${clientStrategyUnavailable}`,
      };
    }
    return { ...base, strategy: 'server', reason: `server-side rewrite impossible: ${error.message}` };
  }
}

/**
 * How many objects of a type exist. One request when the API server reports `remainingItemCount` on a
 * one-object page (it does for a consistent list); otherwise counted page by page (one page in memory).
 */
export async function countObjects(
  client: KubeClient,
  type: ResourceType,
  pageSize: number,
): Promise<number> {
  const first = await client.request<{ items?: unknown[]; metadata?: { remainingItemCount?: number } }>({
    path: resourcePath(type),
    query: { limit: 1 },
    subject: { verb: 'list', resource: resourceName(type) },
  });
  const remaining = first.metadata?.remainingItemCount;
  if (typeof remaining === 'number') return (first.items?.length ?? 0) + remaining;
  let count = 0;
  for await (const page of listPages(client, { ...type, pageSize })) count += page.length;
  return count;
}
