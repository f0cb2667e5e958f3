import type { KubeClient } from '../kube/client.ts';
import { Forbidden, NotFound } from '../kube/errors.ts';
import type { ManifestObject } from '../manifests/read.ts';
import { type CrdArmIndex, type CrdLike, kindArmOf } from './kind-arm.ts';
import { namespaceOf, sameType } from './resolve-arm-id.ts';

/** The annotation ASO writes once it has PUT a resource: the ARM ID it manages. */
export const resourceIdAnnotation = 'serviceoperator.azure.com/resource-id';

/** How far up an owner chain the cluster is read; ARM nests far less deep than this. */
export const maxOwnerDepth = 16;

/** The cluster's CRDs of ASO kinds, indexed for the lookups below. */
export interface ClusterKinds {
  crds: CrdLike[];
  index: CrdArmIndex;
  /** `group/kind` (lower case) -> plural. */
  plurals: Map<string, string>;
}

/** The object as it is in the cluster now, when it is there (for owners and the resource-id annotation). */
export async function clusterObject(
  client: KubeClient,
  object: ManifestObject,
  namespace: string,
  plurals: Map<string, string>,
): Promise<ManifestObject | undefined> {
  const [group, version] = object.apiVersion.split('/');
  const plural = plurals.get(`${group}/${object.kind}`.toLowerCase());
  if (!plural || !object.metadata.name) return undefined;
  try {
    const found = await client.request<Omit<ManifestObject, 'source'>>({
      path: `/apis/${group}/${version}/namespaces/${encodeURIComponent(namespace)}/${plural}/${encodeURIComponent(object.metadata.name)}`,
      subject: { verb: 'get', resource: `${plural}.${group}`, namespace },
    });
    return { ...found, metadata: { ...found.metadata, namespace }, source: 'cluster' };
  } catch (error) {
    if (error instanceof NotFound || error instanceof Forbidden) return undefined;
    throw error;
  }
}

/** The ARM ID ASO recorded on an object read from the cluster; given objects never count (they are not applied yet). */
export function recordedArmId(object: ManifestObject): string | undefined {
  return object.source === 'cluster' ? object.metadata.annotations?.[resourceIdAnnotation] : undefined;
}

interface OwnerWanted {
  namespace: string;
  name: string;
  kind?: string;
  group?: string;
  /** The ARM type the owner must be, from the child's template, when the reference names no kind. */
  parent?: { provider: string; typePath: string[] };
}

function ownerRefOf(object: ManifestObject): {
  name?: string;
  armId?: string;
  kind?: string;
  group?: string;
} {
  const owner = object.spec?.owner;
  return typeof owner === 'object' && owner !== null ? (owner as Record<string, string>) : {};
}

/** What owner `object` needs that `known` lacks, or undefined when it needs none or already has it. */
function wantedOwner(
  object: ManifestObject,
  known: readonly ManifestObject[],
  kinds: ClusterKinds,
  defaultNamespace: string,
): OwnerWanted | undefined {
  // An owner ASO has already reconciled carries its ID: nothing above it is needed.
  if (recordedArmId(object)) return undefined;
  const owner = ownerRefOf(object);
  if (!owner.name || owner.armId) return undefined;
  const namespace = namespaceOf(object, defaultNamespace);
  const present = known.some(
    (o) =>
      o !== object &&
      o.metadata.name === owner.name &&
      namespaceOf(o, defaultNamespace) === namespace &&
      (!owner.kind || o.kind === owner.kind),
  );
  if (present) return undefined;
  const shape = kindArmOf(object.apiVersion, object.kind, kinds.index)?.template;
  const parent =
    !shape || shape.scope === 'extension'
      ? undefined
      : shape.typePath.length > 1
        ? { provider: shape.provider, typePath: shape.typePath.slice(0, -1) }
        : { provider: 'Microsoft.Resources', typePath: ['resourceGroups'] };
  return {
    namespace,
    name: owner.name,
    ...(owner.kind ? { kind: owner.kind } : {}),
    ...(owner.group ? { group: owner.group } : {}),
    ...(parent ? { parent } : {}),
  };
}

/** Every object in the cluster that fits a wanted owner: of its kind, or of any CRD of the parent type. */
async function findInCluster(
  client: KubeClient,
  want: OwnerWanted,
  kinds: ClusterKinds,
): Promise<ManifestObject[]> {
  const found: ManifestObject[] = [];
  for (const crd of kinds.crds) {
    if (want.kind && (crd.spec.names.kind !== want.kind || (want.group && crd.spec.group !== want.group)))
      continue;
    const version = crd.spec.versions.at(-1)?.name;
    if (!version) continue;
    const probe: ManifestObject = {
      apiVersion: `${crd.spec.group}/${version}`,
      kind: crd.spec.names.kind,
      metadata: { name: want.name },
      source: 'cluster',
    };
    const shape = kindArmOf(probe.apiVersion, probe.kind, kinds.index)?.template;
    const candidate =
      want.kind !== undefined ||
      (want.parent !== undefined &&
        shape !== undefined &&
        sameType(shape, want.parent.provider, want.parent.typePath));
    const object = candidate ? await clusterObject(client, probe, want.namespace, kinds.plurals) : undefined;
    if (object) found.push(object);
  }
  return found;
}

/** The owners read from the cluster, and what could not be followed. */
export interface ClusterOwners {
  owners: ManifestObject[];
  warnings: string[];
}

/**
 * Reads from the cluster the owners the given objects need and the files lack, then their owners in turn,
 * level by level, until every chain ends: at an owner ASO has reconciled (its `resource-id` annotation is
 * the ID), at a resource group or `armId`, or at an owner that is nowhere (the row says which). It exists
 * because an owner applied earlier but not yet reconciled has no ID yet, so its ID is built from its own
 * owner, as the operator will. Each owner is read once (a cycle ends the walk; building IDs then reports
 * it), and no deeper than {@link maxOwnerDepth} levels.
 */
export async function readClusterOwners(
  client: KubeClient,
  given: readonly ManifestObject[],
  kinds: ClusterKinds,
  defaultNamespace: string,
  mapBounded: <T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) => Promise<R[]>,
  concurrency: number,
): Promise<ClusterOwners> {
  const known: ManifestObject[] = [...given];
  const owners: ManifestObject[] = [];
  const asked = new Set<string>();
  let frontier: readonly ManifestObject[] = given;
  for (let depth = 1; frontier.length > 0; depth++) {
    const wanted = new Map<string, OwnerWanted>();
    for (const object of frontier) {
      const want = wantedOwner(object, known, kinds, defaultNamespace);
      if (!want) continue;
      const key = `${want.namespace}/${want.group ?? ''}/${want.kind ?? ''}/${want.name}`;
      if (!asked.has(key)) wanted.set(key, want);
    }
    if (wanted.size === 0) break;
    if (depth > maxOwnerDepth) {
      return {
        owners,
        warnings: [
          `owner chains deeper than ${maxOwnerDepth} levels in the cluster were not followed further`,
        ],
      };
    }
    for (const key of wanted.keys()) asked.add(key);
    const found = (
      await mapBounded([...wanted.values()], concurrency, (want) => findInCluster(client, want, kinds))
    ).flat();
    const fresh = found.filter(
      (o) =>
        !known.some(
          (k) =>
            k.kind === o.kind &&
            k.apiVersion.split('/')[0] === o.apiVersion.split('/')[0] &&
            k.metadata.name === o.metadata.name &&
            namespaceOf(k, defaultNamespace) === namespaceOf(o, defaultNamespace),
        ),
    );
    known.push(...fresh);
    owners.push(...fresh);
    frontier = fresh;
  }
  return { owners, warnings: [] };
}
