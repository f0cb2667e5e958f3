import { OwnerChainTooDeep } from './errors.ts';
import { type Graph, type GraphEdge, type GraphNode, nodeLabel, type Relation } from './model.ts';

/**
 * One line of the drawn tree: a node, how its parent line points at it, and what hangs below it. Objects
 * hang below their owner; what an object reads or writes (references, secrets, config maps, exports) is
 * listed below it as leaves, drawn again where they themselves sit in the tree.
 */
export interface TreeLine {
  id: string;
  /** null for a root and for an object under its owner; otherwise the relation of the leaf. */
  relation: Relation | null;
  /** The field that names this node, for a leaf. */
  at: string | null;
  /** Already drawn above (a cycle, or a second owner): not expanded again. */
  repeated: boolean;
  /** One of the objects the user named. */
  target: boolean;
  children: TreeLine[];
}

/** Who owns what, from the graph's edges: each object's one owner (spec.owner first), and each owner's objects. */
export interface Ownership {
  ownerOf: Map<string, GraphEdge>;
  owned: Map<string, string[]>;
  leavesOf: Map<string, GraphEdge[]>;
  nodes: Map<string, GraphNode>;
}

function compareNodes(nodes: Map<string, GraphNode>): (a: string, b: string) => number {
  return (a, b) => {
    const x = nodes.get(a) as GraphNode;
    const y = nodes.get(b) as GraphNode;
    return (
      (x.namespace ?? '').localeCompare(y.namespace ?? '') ||
      x.kind.localeCompare(y.kind) ||
      x.name.localeCompare(y.name) ||
      a.localeCompare(b)
    );
  };
}

/** Reads the ownership out of the graph: the owner of an object is its spec.owner, else its first ASO owner reference. */
export function ownershipOf(graph: Graph): Ownership {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const ownerOf = new Map<string, GraphEdge>();
  for (const relation of ['owner', 'ownerReference'] as const) {
    for (const edge of graph.edges) {
      if (edge.relation !== relation || ownerOf.has(edge.from)) continue;
      if (relation === 'ownerReference' && nodes.get(edge.to)?.type !== 'aso') continue;
      ownerOf.set(edge.from, edge);
    }
  }
  const owned = new Map<string, string[]>();
  for (const [child, edge] of ownerOf) owned.set(edge.to, [...(owned.get(edge.to) ?? []), child]);
  const order = compareNodes(nodes);
  for (const children of owned.values()) children.sort(order);
  const leavesOf = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    if (ownerOf.get(edge.from) === edge) continue;
    leavesOf.set(edge.from, [...(leavesOf.get(edge.from) ?? []), edge]);
  }
  return { ownerOf, owned, leavesOf, nodes };
}

/**
 * The owner chain of `id`, from the object up to the top (a missing or ARM owner ends it); stops at a node
 * already in the chain (a cycle), and throws {@link OwnerChainTooDeep} past `limit` objects.
 */
export function ownerChain(ownership: Ownership, id: string, limit: number): string[] {
  const chain = [id];
  for (let edge = ownership.ownerOf.get(id); edge; edge = ownership.ownerOf.get(edge.to)) {
    if (chain.includes(edge.to)) break;
    chain.push(edge.to);
    if (chain.length > limit) {
      const label = (at: string) => nodeLabel(ownership.nodes.get(at) as GraphNode);
      throw new OwnerChainTooDeep(label(id), chain.map(label), limit);
    }
  }
  return chain;
}

function expand(ownership: Ownership, id: string, drawn: Set<string>, targets: Set<string>): TreeLine {
  const line: TreeLine = {
    id,
    relation: null,
    at: null,
    repeated: drawn.has(id),
    target: targets.has(id),
    children: [],
  };
  if (line.repeated) return line;
  drawn.add(id);
  line.children.push(...leavesBelow(ownership, id, targets));
  for (const child of ownership.owned.get(id) ?? [])
    line.children.push(expand(ownership, child, drawn, targets));
  return line;
}

function leavesBelow(ownership: Ownership, id: string, targets: Set<string>): TreeLine[] {
  return (ownership.leavesOf.get(id) ?? []).map((edge) => ({
    id: edge.to,
    relation: edge.relation,
    at: edge.at,
    repeated: false,
    target: targets.has(edge.to),
    children: [],
  }));
}

/**
 * The tree to draw. Without targets: every object under its owner, from the tops (objects without an owner
 * in view, and missing or ARM owners), with objects on an owner cycle drawn once from their smallest id.
 * With targets: for each, its owner chain from the top down to it, and everything below it.
 */
export function forestOf(
  graph: Graph,
  targets: readonly string[] = [],
  limit = Number.POSITIVE_INFINITY,
): TreeLine[] {
  const ownership = ownershipOf(graph);
  const wanted = new Set(targets);
  const drawn = new Set<string>();
  const order = compareNodes(ownership.nodes);
  if (targets.length === 0) {
    const tops = graph.nodes
      .filter(
        (node) => !ownership.ownerOf.has(node.id) && (node.type === 'aso' || ownership.owned.has(node.id)),
      )
      .map((node) => node.id)
      .sort(order);
    const forest = tops.map((id) => expand(ownership, id, drawn, wanted));
    for (const node of graph.nodes) {
      if (node.type === 'aso' && !drawn.has(node.id)) forest.push(expand(ownership, node.id, drawn, wanted));
    }
    return forest;
  }
  const forest: TreeLine[] = [];
  for (const target of targets) {
    const chain = ownerChain(ownership, target, limit).reverse();
    const build = (index: number): TreeLine => {
      const id = chain[index] as string;
      if (index === chain.length - 1) return expand(ownership, id, drawn, wanted);
      return {
        id,
        relation: null,
        at: null,
        repeated: false,
        target: false,
        children: [...leavesBelow(ownership, id, wanted), build(index + 1)],
      };
    };
    forest.push(build(0));
  }
  return forest;
}
