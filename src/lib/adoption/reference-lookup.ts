import type { ArmResolvers, ConfigMapKey, NamedReference } from '../conversion/arm.ts';
import type { KubeClient } from '../kube/client.ts';
import { Forbidden, NotFound } from '../kube/errors.ts';
import type { ManifestObject } from '../manifests/read.ts';
import { clusterObject, recordedArmId } from './cluster-owners.ts';
import type { CrdLike } from './kind-arm.ts';
import { namespaceOf } from './resolve-arm-id.ts';

/**
 * What adopt-check can find out about the values a spec names instead of holding: the ARM ID of an object a
 * reference names, and a config map's key. Asynchronous, because both may need the cluster; undefined when
 * the value cannot be known, so the what-if leaves the property out instead of guessing it.
 */
export interface ReferenceLookup {
  armIdOf(reference: NamedReference, namespace: string): Promise<string | undefined>;
  configMapValue(reference: ConfigMapKey, namespace: string): Promise<string | undefined>;
}

/** What a reference lookup reads from: the files, the cluster (read only), and the ARM IDs already worked out. */
export interface ReferenceSources {
  /** The objects of the files, whose ARM IDs adopt-check predicts (the operator records exactly those). */
  readonly given: readonly ManifestObject[];
  readonly predictedIdOf: (object: ManifestObject) => string | undefined;
  readonly defaultNamespace: string;
  readonly client: KubeClient | undefined;
  readonly crds: readonly CrdLike[];
  readonly plurals: Map<string, string>;
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * The operator resolves a `name` reference to the ARM ID recorded on the object it names (in the referring
 * object's namespace; group and kind required). adopt-check mirrors that: an object of the same files
 * answers with the ID the operator will record for it; otherwise the cluster's copy answers with its
 * `serviceoperator.azure.com/resource-id`. A config map key is read from the cluster, never a secret.
 */
export function referenceLookupOf(sources: ReferenceSources): ReferenceLookup {
  const cache = new Map<string, Promise<string | undefined>>();
  const once = (key: string, work: () => Promise<string | undefined>) => {
    let found = cache.get(key);
    if (!found) {
      found = work();
      cache.set(key, found);
    }
    return found;
  };
  return {
    armIdOf(reference, namespace) {
      const { group, kind, name } = reference;
      if (!group || !kind || !name) return Promise.resolve(undefined);
      return once(`ref/${namespace}/${group}/${kind}/${name}`, async () => {
        const inFiles = sources.given.find(
          (o) =>
            o.metadata.name === name &&
            o.kind === kind &&
            groupOf(o.apiVersion) === group &&
            namespaceOf(o, sources.defaultNamespace) === namespace,
        );
        if (inFiles) return sources.predictedIdOf(inFiles);
        if (!sources.client) return undefined;
        const crd = sources.crds.find((c) => c.spec.group === group && c.spec.names.kind === kind);
        const version = crd?.spec.versions[0]?.name;
        if (!version) return undefined;
        const found = await clusterObject(
          sources.client,
          { apiVersion: `${group}/${version}`, kind, metadata: { name }, source: 'cluster' },
          namespace,
          sources.plurals,
        );
        return found ? recordedArmId(found) : undefined;
      });
    },
    configMapValue(reference, namespace) {
      const { client } = sources;
      if (!client || !reference.name || !reference.key) return Promise.resolve(undefined);
      return once(`cm/${namespace}/${reference.name}/${reference.key}`, async () => {
        try {
          const map = await client.request<{ data?: Record<string, string> }>({
            path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps/${encodeURIComponent(reference.name)}`,
            subject: { verb: 'get', resource: 'configmaps', namespace },
          });
          return map.data?.[reference.key];
        } catch (error) {
          if (error instanceof NotFound || error instanceof Forbidden) return undefined;
          throw error;
        }
      });
    },
  };
}

/**
 * Synchronous resolvers for one object's ARM body, with every value it asks for looked up beforehand.
 * `build` makes the body (it runs twice: once to learn which references the body needs, once with them), so
 * only references the object's API version really sends are ever looked up.
 */
export async function prefetchedResolvers(
  build: (resolvers: ArmResolvers) => Promise<unknown>,
  lookup: ReferenceLookup,
  namespace: string,
): Promise<ArmResolvers> {
  const idKey = (r: NamedReference) => `${r.group}/${r.kind}/${r.name}`;
  const mapKey = (k: ConfigMapKey) => `${k.name}/${k.key}`;
  // Looked up only once the body is built: a lookup failing meanwhile would be a rejection nobody awaits.
  const references = new Map<string, NamedReference>();
  const keys = new Map<string, ConfigMapKey>();
  await build({
    armIdOf: (reference) => {
      references.set(idKey(reference), reference);
      return undefined;
    },
    configMapValue: (reference) => {
      keys.set(mapKey(reference), reference);
      return undefined;
    },
  });
  const [byId, byKey] = await Promise.all([
    settled(references, (reference) => lookup.armIdOf(reference, namespace)),
    settled(keys, (key) => lookup.configMapValue(key, namespace)),
  ]);
  return {
    armIdOf: (reference) => byId.get(idKey(reference)),
    configMapValue: (reference) => byKey.get(mapKey(reference)),
  };
}

async function settled<T>(
  wanted: Map<string, T>,
  find: (item: T) => Promise<string | undefined>,
): Promise<Map<string, string | undefined>> {
  return new Map(await Promise.all([...wanted].map(async ([key, item]) => [key, await find(item)] as const)));
}
