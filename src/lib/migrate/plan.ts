import type { KubeClient } from '../kube/client.ts';
import { ApiError, NotFound } from '../kube/errors.ts';
import { type KubeObject, listPages } from '../kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../kube/paths.ts';
import { clientSideRefusal } from './client-eligibility.ts';
import { type Crd, servedVersionsOf, storageVersionOf } from './crds.ts';
import type { CrdPlan, MigrationPlan, StrategyChoice } from './plan-types.ts';
import { lastSpecChange } from './settle.ts';
import { resolveTarget, type TargetSpec } from './target.ts';

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
 * Plans every CRD: resolves the target, compares it with the storage version, counts the objects that may
 * still be stored at old versions, and picks the strategy (see {@link planCrd}).
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

/**
 * The plan of one CRD. Counting reads at the target version, so it is also the probe of the server-side
 * strategy: a conversion webhook that cannot convert what it reads fails it. The probe is not conclusive
 * (a list may be answered from the watch cache, converted long ago), so the run also judges the conversion
 * failures of its writes (see `runMigration`). `auto` picks server-side when the probe succeeds, else
 * client-side where it is allowed (see `clientSideRefusal`), else nothing; `server` and `client` take
 * that strategy or nothing, and the reason says which and why.
 */
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
    clientRefusal: () => undefined,
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
  let decided: { refusal: string | undefined } | undefined;
  const clientRefusal = (): string | undefined => {
    decided ??= { refusal: clientSideRefusal(crd, target) };
    return decided.refusal;
  };
  const planned = { ...base, clientRefusal };
  const clientSidePlan = (why: string, objectsToCheck: number | undefined): CrdPlan =>
    clientRefusal() === undefined
      ? {
          ...planned,
          action: 'migrate',
          strategy: 'client',
          objectsToCheck,
          reason: `client-side: ${why}; the cluster's schemas of ${[...new Set([...storedVersions, target])].join(', ')} are the generated ones`,
        }
      : {
          ...planned,
          action: 'unavailable',
          strategy: 'client',
          objectsToCheck,
          reason: `${why}, but client-side conversion is refused: ${clientRefusal()}`,
        };
  let probe: { count: number } | { failure: ApiError };
  try {
    const { count, first } = await countObjects(client, base.access, options.pageSize);
    if (first) await probeRead(client, base.access, first);
    probe = { count };
  } catch (error) {
    if (!isConversionFailure(error)) throw error;
    probe = { failure: error };
  }
  const count = 'count' in probe ? probe.count : undefined;
  if (options.strategy === 'client') return clientSidePlan('--strategy client', count);
  if ('count' in probe) {
    const note =
      accessVersion === target
        ? ''
        : `; the storage version is not served, so objects are written at ${accessVersion}`;
    const why =
      options.strategy === 'auto'
        ? `server-side: the API server converts (a list and a read at ${accessVersion} succeeded)`
        : 'server-side: --strategy server';
    return {
      ...planned,
      action: 'migrate',
      strategy: 'server',
      objectsToCheck: probe.count,
      reason: `${why}${note}`,
    };
  }
  if (options.strategy === 'auto') {
    return clientSidePlan(`the API server cannot convert every object (${probe.failure.message})`, undefined);
  }
  return {
    ...planned,
    strategy: 'server',
    reason: `server-side rewrite impossible: ${probe.failure.message}`,
  };
}

/** One object, to read back by name. */
interface ObjectRef {
  namespace: string | undefined;
  name: string;
}

/**
 * How many objects of a type exist, and the first of them. One request when the API server reports
 * `remainingItemCount` on a one-object page (it does for a consistent list); otherwise counted page by
 * page (one page in memory).
 */
export async function countObjects(
  client: KubeClient,
  type: ResourceType,
  pageSize: number,
): Promise<{ count: number; first: ObjectRef | undefined }> {
  const page = await client.request<{ items?: KubeObject[]; metadata?: { remainingItemCount?: number } }>({
    path: resourcePath(type),
    query: { limit: 1 },
    subject: { verb: 'list', resource: resourceName(type) },
  });
  const item = page.items?.[0];
  const first = item ? { namespace: item.metadata.namespace, name: item.metadata.name } : undefined;
  const remaining = page.metadata?.remainingItemCount;
  if (typeof remaining === 'number') return { count: (page.items?.length ?? 0) + remaining, first };
  let count = 0;
  for await (const items of listPages(client, { ...type, pageSize })) count += items.length;
  return { count, first };
}

/**
 * Reads one object by name. A list may be answered from the watch cache, which holds objects converted
 * when they were cached; a read by name without a resourceVersion is served from etcd, so it makes the
 * conversion webhook convert that object now, and a webhook that refuses its stored version shows here,
 * before anything is written. One object proves nothing about the others: the run judges every write too.
 */
async function probeRead(client: KubeClient, type: ResourceType, object: ObjectRef): Promise<void> {
  try {
    await client.request({
      path: resourcePath(type, object.namespace, object.name),
      subject: { verb: 'get', resource: `${resourceName(type)}/${object.name}`, namespace: object.namespace },
    });
  } catch (error) {
    if (error instanceof NotFound) return;
    throw error;
  }
}
