import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/lib/kube/client.ts';
import { resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';
import { LiveStatus } from '../../../src/lib/status/live.ts';
import { freshNamespace } from '../../fixtures/cluster.ts';
import { relayToPlane } from '../../fixtures/relay.ts';
import { createObject, type TestKind, testKind } from '../status/fixtures.ts';

const types = 20;

/** Connections open through a relay once a live view over `kinds` has started watching them all. */
async function connectionsWatching(kinds: TestKind[], namespace: string): Promise<number> {
  const relay = await relayToPlane();
  const client = new KubeClient(await resolveKubeconfig({ kubeconfig: relay.kubeconfig }));
  const live = new LiveStatus(client, {
    namespace,
    labelSelector: undefined,
    kinds: kinds.map((kind) => `${kind.plural}.${kind.group}`),
    states: undefined,
    sort: 'namespace',
  });
  const controller = new AbortController();
  try {
    await live.start(controller.signal);
    // One more change per type, seen by every watch, proves each watch is open.
    for (const kind of kinds)
      await createObject(kind, namespace, { name: `seen-${kind.kind.toLowerCase()}`, ready: null });
    const deadline = Date.now() + 30_000;
    while (live.items.size < kinds.length * 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(live.items.size).toBe(kinds.length * 2);
    return relay.connections().open;
  } finally {
    controller.abort();
    await live.stopped();
    await relay.cut();
  }
}

describe('watching many types on the real control plane', () => {
  it('shares a few HTTP/2 connections where HTTP/1.1 needs one per type', async () => {
    const namespace = await freshNamespace('many');
    const kinds: TestKind[] = [];
    for (let i = 0; i < types; i++) {
      const kind = await testKind(`Many${String.fromCharCode(97 + i)}`);
      await createObject(kind, namespace, { name: 'first', ready: null });
      kinds.push(kind);
    }
    const multiplexed = await connectionsWatching(kinds, namespace);
    process.env.KUBECTL_ASO_HTTP1 = '1';
    let oneEach: number;
    try {
      oneEach = await connectionsWatching(kinds, namespace);
    } finally {
      delete process.env.KUBECTL_ASO_HTTP1;
    }
    console.log(`connections watching ${types} types: HTTP/2 ${multiplexed}, HTTP/1.1 ${oneEach}`);
    // Lists keep at most their concurrency (8) of pooled HTTP/1.1 connections; watches add one HTTP/2 one.
    expect(multiplexed).toBeLessThanOrEqual(9);
    expect(oneEach).toBeGreaterThanOrEqual(types);
  });
});
