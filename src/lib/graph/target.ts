import type { KubeClient } from '../kube/client.ts';
import { discoverResources, type ServedResource } from '../kube/discovery.ts';
import { resourceName } from '../kube/paths.ts';
import { type AsoKind, kindMatches, UnknownKind } from '../status/kinds.ts';
import { AmbiguousKind, BadObjectName, NotAnAsoKind, ObjectNotFound } from './errors.ts';
import type { Graph } from './model.ts';

/** `KIND/NAME` as given: the kind as kubectl takes it (kind, plural, short name, kind.group) and the name. */
export interface ObjectName {
  kind: string;
  name: string;
}

/** Splits `KIND/NAME`; anything else is a usage error naming what was given. */
export function parseObjectName(given: string): ObjectName {
  const slash = given.indexOf('/');
  const kind = given.slice(0, slash);
  const name = given.slice(slash + 1);
  if (slash <= 0 || name.length === 0 || name.includes('/')) throw new BadObjectName(given);
  return { kind, name };
}

/**
 * The ASO types `KIND` names. None: when the cluster serves the kind outside ASO's groups it is
 * {@link NotAnAsoKind} (exit 9), otherwise {@link UnknownKind} (exit 7), as `status --kind` says it.
 */
export async function asoKindsNamed(
  client: KubeClient,
  kinds: readonly AsoKind[],
  kind: string,
): Promise<AsoKind[]> {
  const matching = kinds.filter((candidate) => kindMatches(candidate, kind));
  if (matching.length > 0) return matching;
  const served = [...(await discoverResources(client, () => true)), ...(await coreResources(client))];
  const other = served.find((candidate) => kindMatches(candidate, kind));
  if (other) throw new NotAnAsoKind(kind, resourceName(other));
  throw new UnknownKind([kind], kinds.length);
}

interface CoreResourceList {
  resources?: Array<{
    name: string;
    kind: string;
    singularName?: string;
    shortNames?: string[];
    namespaced?: boolean;
  }>;
}

/** The core group's types (`pods`, `secrets`, ...), which `/apis` discovery leaves out. */
async function coreResources(client: KubeClient): Promise<ServedResource[]> {
  const list = await client.request<CoreResourceList>({
    path: '/api/v1',
    subject: { verb: 'get', resource: 'API discovery (/api/v1)' },
  });
  return (list.resources ?? [])
    .filter((resource) => !resource.name.includes('/'))
    .map((resource) => ({
      group: '',
      version: 'v1',
      plural: resource.name,
      kind: resource.kind,
      singular: resource.singularName ?? '',
      shortNames: resource.shortNames ?? [],
      namespaced: resource.namespaced ?? true,
      verbs: [],
    }));
}

/** The id of the one object in the graph that `KIND/NAME` names in `namespace`. */
export function objectIn(
  graph: Graph,
  kinds: readonly AsoKind[],
  wanted: ObjectName,
  namespace: string,
): string {
  const types = new Set(kinds.map((kind) => `${kind.group}/${kind.kind}`));
  const found = graph.nodes.filter(
    (node) =>
      node.type === 'aso' &&
      node.presence === 'present' &&
      node.namespace === namespace &&
      node.name === wanted.name &&
      types.has(`${node.group}/${node.kind}`),
  );
  if (found.length === 0) throw new ObjectNotFound(wanted.kind, wanted.name, `namespace ${namespace}`);
  if (found.length > 1) {
    throw new AmbiguousKind(
      wanted.kind,
      wanted.name,
      found.map((node) => `${node.kind.toLowerCase()}.${node.group}/${node.name}`),
    );
  }
  return (found[0] as { id: string }).id;
}
