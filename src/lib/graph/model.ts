import type { State } from '../status/ready-state.ts';

/**
 * The ownership graph's vocabulary. Nodes are ASO objects and what they point at (secrets, config maps,
 * ARM IDs, Kubernetes owners); an edge always runs from the object that holds the field to what the field
 * names, so "what does this depend on" is the outgoing edges and "what hangs off this" the incoming ones.
 */

/** What a node stands for. */
export type NodeType = 'aso' | 'secret' | 'configMap' | 'arm' | 'kubernetes';

/**
 * Whether the node's target was found: `missing` is named by a field but not in the cluster, `unknown`
 * could not be looked at (RBAC), `external` is an ARM ID no ASO object in view declares.
 */
export type Presence = 'present' | 'missing' | 'unknown' | 'external';

/** One node: where it is, whether it is there, and for an ASO object what its Ready condition says. */
export interface GraphNode {
  /** Stable and unique in the graph: `group/Kind/namespace/name`, `Secret//ns/name`, `arm:/subscriptions/...`. */
  id: string;
  type: NodeType;
  kind: string;
  group: string;
  namespace: string | null;
  name: string;
  presence: Presence;
  state: State | null;
  severity: string;
  reason: string;
  message: string;
  lastTransitionTime: string | null;
  creationTimestamp: string | null;
  /** `status.id` (or the operator's resource-id annotation): the resource the object manages in Azure. */
  armId: string | null;
  /** The `serviceoperator.azure.com/reconcile-policy` annotation as written, null when unset. */
  reconcilePolicy: string | null;
}

/** Why one node points at another. */
export type Relation =
  | 'owner'
  | 'reference'
  | 'secret'
  | 'configMap'
  | 'exportSecret'
  | 'exportConfigMap'
  | 'ownerReference';

/** `from` holds the field at `at` (`spec.owner`, `metadata.ownerReferences[0]`) that names `to`. */
export interface GraphEdge {
  from: string;
  to: string;
  relation: Relation;
  at: string;
}

/** Something the graph could not look at; the graph still stands, with the affected nodes `unknown`. */
export interface GraphWarning {
  /** What could not be read, as kubectl names it (`secrets in namespace prod`). */
  subject: string;
  reason: string;
  message: string;
}

/** The graph as read from the cluster, ready to draw: what `tree -o json|yaml` prints. */
export interface Graph {
  /** Ordered by id. */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Each cycle as the node ids along it, the first repeated at the end. */
  cycles: string[][];
  warnings: GraphWarning[];
}

/** The node id of an object of a type: group and kind lower case, so that case never splits a node. */
export function objectId(group: string, kind: string, namespace: string | null, name: string): string {
  return `${group.toLowerCase()}/${kind.toLowerCase()}/${namespace ?? ''}/${name}`;
}

/** The node id of an ARM resource no object in view declares; ARM IDs are case-insensitive. */
export function armNodeId(armId: string): string {
  return `arm:${armId.toLowerCase()}`;
}

/** `Kind/name`: how people name a node in messages, trees and cycles. */
export function nodeLabel(node: Pick<GraphNode, 'kind' | 'name' | 'namespace' | 'type'>): string {
  // An ARM node's name is its whole ID; its type and last name say which resource it is in a line.
  return node.type === 'arm'
    ? `${node.kind}/${node.name.split('/').filter(Boolean).at(-1) ?? ''}`
    : `${node.kind}/${node.name}`;
}
