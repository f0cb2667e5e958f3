import type { Graph } from '../graph/model.ts';
import { ownershipOf } from '../graph/tree.ts';

/**
 * The ASO objects a `kubectl delete` of `roots` removes from the cluster: the roots and, through the owner
 * references ASO puts on every child (the garbage collector's cascade), everything they own, at any
 * depth. Each id once, roots first, then by depth; an owner cycle cannot loop.
 */
export function kubernetesCascade(graph: Graph, roots: readonly string[]): string[] {
  const { owned } = ownershipOf(graph);
  const cascade: string[] = [];
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    cascade.push(id);
    queue.push(...(owned.get(id) ?? []));
  }
  return cascade;
}
