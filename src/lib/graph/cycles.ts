import type { GraphEdge } from './model.ts';

/**
 * The cycles among `edges`: each strongly connected set of two or more nodes (or a node pointing at
 * itself), as one walk along its edges that returns to its start. Tarjan's algorithm, iterative so that a
 * long chain cannot overflow the stack; the walks start at each set's smallest id, so output is stable.
 */
export function findCycles(edges: readonly GraphEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const targets = next.get(edge.from) ?? [];
    if (!targets.includes(edge.to)) targets.push(edge.to);
    next.set(edge.from, targets);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const frames: Array<{ node: string; child: number }> = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { node: string; child: number };
      const targets = next.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (next.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components
    .map((component) => walkOf(new Set(component), next))
    .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** A walk through the component from its smallest id back to it, by a breadth-first shortest return. */
function walkOf(members: Set<string>, next: Map<string, string[]>): string[] {
  const start = [...members].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of next.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at) as string) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
