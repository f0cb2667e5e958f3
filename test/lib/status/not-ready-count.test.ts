import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatusChange } from '../../../src/lib/status/live.ts';
import type { StatusItem } from '../../../src/lib/status/report.ts';
import { NotReadyCount } from '../../../src/lib/status/wait.ts';

function item(name: string, ready: boolean): StatusItem {
  return {
    namespace: 'ns',
    kind: 'K',
    group: 'g.azure.com',
    version: 'v1',
    name,
    state: ready ? 'Ready' : 'Progressing',
    stale: false,
    ready,
    severity: '',
    reason: '',
    message: '',
    lastTransitionTime: null,
  };
}

describe('NotReadyCount', () => {
  it('always equals a full recount, whatever the sequence of watch changes', () => {
    const step = fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean(), fc.boolean());
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const items = new Map<string, StatusItem>([['a', item('a', false)]]);
        const count = new NotReadyCount();
        count.reset(items.values());
        for (const [name, remove, ready] of steps) {
          const previous = items.get(name);
          let change: StatusChange;
          if (remove) {
            if (!previous) continue;
            items.delete(name);
            change = { type: 'DELETED', item: previous, previous };
          } else {
            const next = item(name, ready);
            items.set(name, next);
            change = { type: previous ? 'MODIFIED' : 'ADDED', item: next, previous };
          }
          count.apply(change);
          expect(count.count).toBe([...items.values()].filter((each) => !each.ready).length);
        }
      }),
    );
  });
});
