import { describe, expect, it } from 'vitest';
import { discoverAsoKinds } from '../../../src/lib/status/kinds.ts';
import { LiveStatus, type StatusChange } from '../../../src/lib/status/live.ts';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';
import { createObject, testKind, writeReady } from './fixtures.ts';

describe('LiveStatus on the real control plane', () => {
  it('lists a type again (as after an expired watch) reporting only the objects that changed', async () => {
    const kind = await testKind('Relisted');
    const namespace = await freshNamespace('relist');
    const ready = { status: 'True', reason: 'Succeeded' };
    for (const name of ['r1', 'r2', 'r3']) await createObject(kind, namespace, { name, ready });
    const client = await adminClient();
    const served = (await discoverAsoKinds(client)).find((each) => each.group === kind.group);
    if (!served) throw new Error('the test kind is not served');
    const live = new LiveStatus(client, {
      namespace,
      labelSelector: undefined,
      kinds: [`relisted.${kind.group}`],
      states: undefined,
      sort: 'namespace',
    });
    const changes: StatusChange[] = [];
    const controller = new AbortController();
    await live.start(controller.signal, { onChange: (change) => void changes.push(change) });
    try {
      expect(live.items.size).toBe(3);
      await live.resync(served);
      expect(changes).toEqual([]);
      await writeReady(client, kind, namespace, 'r2', { status: 'False', severity: 'Error', reason: 'Bad' });
      await live.resync(served);
      // The watch may see the change before the list does: either way it is reported once.
      const r2 = changes.filter((change) => change.item.name === 'r2');
      expect(r2).toHaveLength(1);
      expect(r2.at(-1)).toMatchObject({ type: 'MODIFIED', item: { state: 'Error' } });
      expect(changes.filter((change) => change.item.name !== 'r2')).toEqual([]);
    } finally {
      controller.abort();
      await live.stopped();
    }
  });
});
