import type { KubeObject } from '../kube/list.ts';
import { readyStateOf } from '../status/ready-state.ts';
import { findCycles } from './cycles.ts';
import { type FoundReference, referencesIn } from './extract.ts';
import {
  armNodeId,
  type Graph,
  type GraphEdge,
  type GraphNode,
  type GraphWarning,
  objectId,
  type Relation,
} from './model.ts';
import type { ReferencePath, ReferenceRole } from './schema-references.ts';

/** The annotation that says what the operator does in Azure when the object is deleted (and whether it writes). */
export const reconcilePolicyAnnotation = 'serviceoperator.azure.com/reconcile-policy';
/** The annotation the operator records the managed resource's ARM ID in. */
export const resourceIdAnnotation = 'serviceoperator.azure.com/resource-id';

/** One listed ASO object with its type and the reference paths of that type's schema. */
export interface ObjectOfKind {
  kind: string;
  group: string;
  object: KubeObject;
  paths: readonly ReferencePath[];
}

/** The names of one kind of plain object (secrets, config maps) per namespace; `forbidden` when not readable. */
export type NamesByNamespace = Map<string, Set<string> | 'forbidden'>;

/** Everything the graph is built from, read beforehand so the build is a pure function tests can feed. */
export interface GraphInput {
  objects: ObjectOfKind[];
  secrets: NamesByNamespace;
  configMaps: NamesByNamespace;
  warnings: GraphWarning[];
}

const relationOf: Record<ReferenceRole, Relation> = {
  owner: 'owner',
  resource: 'reference',
  secret: 'secret',
  secretMap: 'secret',
  configMap: 'configMap',
  exportSecret: 'exportSecret',
  exportConfigMap: 'exportConfigMap',
};

function blankNode(
  fields: Pick<GraphNode, 'id' | 'type' | 'kind' | 'group' | 'namespace' | 'name' | 'presence'>,
): GraphNode {
  return {
    ...fields,
    state: null,
    severity: '',
    reason: '',
    message: '',
    lastTransitionTime: null,
    creationTimestamp: null,
    armId: null,
    reconcilePolicy: null,
  };
}

function statusId(object: KubeObject): string | null {
  const status = object.status;
  const id = typeof status === 'object' && status !== null ? (status as { id?: unknown }).id : undefined;
  if (typeof id === 'string' && id.length > 0) return id;
  return object.metadata.annotations?.[resourceIdAnnotation] ?? null;
}

function objectNode(entry: ObjectOfKind): GraphNode {
  const { object } = entry;
  const namespace = object.metadata.namespace ?? null;
  const ready = readyStateOf(object);
  return {
    ...blankNode({
      id: objectId(entry.group, entry.kind, namespace, object.metadata.name),
      type: 'aso',
      kind: entry.kind,
      group: entry.group,
      namespace,
      name: object.metadata.name,
      presence: 'present',
    }),
    state: ready.state,
    severity: ready.severity,
    reason: ready.reason,
    message: ready.message,
    lastTransitionTime: ready.lastTransitionTime,
    creationTimestamp: object.metadata.creationTimestamp ?? null,
    armId: statusId(object),
    reconcilePolicy: object.metadata.annotations?.[reconcilePolicyAnnotation] ?? null,
  };
}

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
}

/**
 * The graph of the given objects: a node for each, and for each reference its schema describes an edge to
 * the object, secret, config map or ARM ID it names, which is a node of its own, marked `missing` when
 * not found, `unknown` when it could not be looked for and `external` for an ARM ID no object declares.
 * Kubernetes owner references become edges too, except where they repeat a `spec.owner` edge.
 */
export function buildGraph(input: GraphInput): Graph {
  const nodes = new Map<string, GraphNode>();
  for (const entry of input.objects) {
    const node = objectNode(entry);
    nodes.set(node.id, node);
  }
  const byUid = new Map<string, string>();
  const byArmId = new Map<string, string>();
  const byNamespaceName = new Map<string, GraphNode[]>();
  for (const entry of input.objects) {
    const node = nodes.get(
      objectId(entry.group, entry.kind, entry.object.metadata.namespace ?? null, entry.object.metadata.name),
    ) as GraphNode;
    if (entry.object.metadata.uid) byUid.set(entry.object.metadata.uid, node.id);
    if (node.armId) byArmId.set(node.armId.toLowerCase(), node.id);
    const key = `${node.namespace ?? ''}/${node.name}`;
    byNamespaceName.set(key, [...(byNamespaceName.get(key) ?? []), node]);
  }
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const addEdge = (edge: GraphEdge): void => {
    const key = `${edge.from} ${edge.to} ${edge.relation} ${edge.at}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push(edge);
  };
  const ensure = (node: GraphNode): string => {
    if (!nodes.has(node.id)) nodes.set(node.id, node);
    return node.id;
  };
  const plainNode = (type: 'secret' | 'configMap', namespace: string, name: string): string => {
    const listed = (type === 'secret' ? input.secrets : input.configMaps).get(namespace);
    const presence =
      listed === undefined || listed === 'forbidden' ? 'unknown' : listed.has(name) ? 'present' : 'missing';
    const kind = type === 'secret' ? 'Secret' : 'ConfigMap';
    return ensure(
      blankNode({
        id: objectId('', kind, namespace, name),
        type,
        kind,
        group: '',
        namespace,
        name,
        presence,
      }),
    );
  };
  const objectTarget = (namespace: string, reference: FoundReference): string => {
    if (reference.armId) {
      const declared = byArmId.get(reference.armId.toLowerCase());
      if (declared) return declared;
      return ensure(
        blankNode({
          id: armNodeId(reference.armId),
          type: 'arm',
          kind: armTypeOf(reference.armId),
          group: '',
          namespace: null,
          name: reference.armId,
          presence: 'external',
        }),
      );
    }
    const name = reference.name as string;
    const type = reference.kind
      ? { group: reference.group ?? '', kind: reference.kind }
      : reference.ownerType;
    if (type) {
      const id = objectId(type.group, type.kind, namespace, name);
      const exact = nodes.get(id);
      if (exact) return exact.id;
      return ensure(
        blankNode({
          id,
          type: 'aso',
          kind: type.kind,
          group: type.group,
          namespace,
          name,
          presence: 'missing',
        }),
      );
    }
    // An owner whose type neither the schema nor the object names: the one ASO object of that name.
    const candidates = byNamespaceName.get(`${namespace}/${name}`) ?? [];
    if (candidates.length === 1) return (candidates[0] as GraphNode).id;
    return ensure(
      blankNode({
        id: objectId('', '?', namespace, name),
        type: 'aso',
        kind: '?',
        group: '',
        namespace,
        name,
        presence: 'missing',
      }),
    );
  };
  for (const entry of input.objects) {
    const namespace = entry.object.metadata.namespace ?? '';
    const from = objectId(
      entry.group,
      entry.kind,
      entry.object.metadata.namespace ?? null,
      entry.object.metadata.name,
    );
    const ownerTargets = new Set<string>();
    for (const reference of referencesIn(entry.object.spec, entry.paths)) {
      const relation = relationOf[reference.role];
      const onObject = reference.role === 'owner' || reference.role === 'resource';
      // A secret or config map is only ever named; an ARM ID in such a field names nothing in the cluster.
      if (!onObject && !reference.name) continue;
      const plain = relation === 'configMap' || relation === 'exportConfigMap' ? 'configMap' : 'secret';
      const to = onObject
        ? objectTarget(namespace, reference)
        : plainNode(plain, namespace, reference.name as string);
      if (reference.role === 'owner') ownerTargets.add(to);
      addEdge({ from, to, relation, at: reference.at });
    }
    const owners = entry.object.metadata.ownerReferences ?? [];
    for (const [index, owner] of owners.entries()) {
      const to = ownerReferenceTarget(owner, namespace, byUid, ensure);
      if (to === undefined || ownerTargets.has(to)) continue;
      addEdge({ from, to, relation: 'ownerReference', at: `metadata.ownerReferences[${index}]` });
    }
  }
  const structural = edges.filter(
    (edge) =>
      edge.relation === 'owner' || edge.relation === 'reference' || edge.relation === 'ownerReference',
  );
  return {
    nodes: [...nodes.values()].sort((a, b) => a.id.localeCompare(b.id)),
    edges,
    cycles: findCycles(structural),
    warnings: input.warnings,
  };
}

function ownerReferenceTarget(
  owner: OwnerReference,
  namespace: string,
  byUid: Map<string, string>,
  ensure: (node: GraphNode) => string,
): string | undefined {
  if (owner.uid && byUid.has(owner.uid)) return byUid.get(owner.uid);
  if (!owner.kind || !owner.name) return undefined;
  const group = (owner.apiVersion ?? '').includes('/')
    ? ((owner.apiVersion as string).split('/')[0] as string)
    : '';
  const aso = group.endsWith('.azure.com');
  // An ASO owner not among the listed objects is gone; any other owner was not looked for.
  return ensure(
    blankNode({
      id: objectId(group, owner.kind, namespace, owner.name),
      type: aso ? 'aso' : 'kubernetes',
      kind: owner.kind,
      group,
      namespace,
      name: owner.name,
      presence: aso ? 'missing' : 'unknown',
    }),
  );
}

/** `Microsoft.Network/virtualNetworks/subnets` from an ARM ID, for naming an ARM node. */
export function armTypeOf(armId: string): string {
  const segments = armId.split('/').filter((segment) => segment.length > 0);
  const providers = segments.findLastIndex((segment) => segment.toLowerCase() === 'providers');
  if (providers < 0) {
    return segments.length >= 4 && segments[2]?.toLowerCase() === 'resourcegroups'
      ? 'Microsoft.Resources/resourceGroups'
      : 'Microsoft.Resources/subscriptions';
  }
  const rest = segments.slice(providers + 1);
  const types = rest.slice(1).filter((_, index) => index % 2 === 0);
  return [rest[0] ?? '', ...types].join('/');
}
