import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/lib/kube/client.ts';
import { resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';
import { LiveStatus } from '../../../src/lib/status/live.ts';
import type { StatusSelection } from '../../../src/lib/status/selection.ts';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';
import { relayToPlane } from '../../fixtures/relay.ts';
import { createObject, type TestKind, testKind } from '../status/fixtures.ts';

const ready = { status: 'True', reason: 'Succeeded' };

function selectionOf(kind: TestKind, plural: string, namespace: string): StatusSelection {
  return {
    namespace,
    labelSelector: undefined,
    kinds: [`${plural}.${kind.group}`],
    states: undefined,
    sort: 'namespace',
  };
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('long watches on the real control plane', () => {
  it('reopen a stream that went silent, and miss nothing that changed meanwhile', async () => {
    const kind = await testKind('Silent');
    const namespace = await freshNamespace('silent');
    await createObject(kind, namespace, { name: 'before', ready });
    const relay = await relayToPlane();
    const client = new KubeClient(await resolveKubeconfig({ kubeconfig: relay.kubeconfig }));
    const live = new LiveStatus(client, selectionOf(kind, 'silents', namespace), {
      watch: { idleMs: 1_000 },
    });
    const controller = new AbortController();
    await live.start(controller.signal);
    try {
      const opened = relay.connections().total;
      relay.hold(); // the watch's connection now carries nothing, and nothing closes it
      await createObject(kind, namespace, { name: 'during', ready });
      await until(() => [...live.items.values()].some((item) => item.name === 'during'), 'the change');
      expect(relay.connections().total).toBeGreaterThan(opened);
    } finally {
      controller.abort();
      await live.stopped();
      await relay.cut();
    }
  });

  it('ask the server to end each watch, and carry on from where it ended', async () => {
    const kind = await testKind('Recycled');
    const namespace = await freshNamespace('recycled');
    const client = await adminClient();
    const live = new LiveStatus(client, selectionOf(kind, 'recycleds', namespace), {
      watch: { minTimeoutSeconds: 1 },
    });
    const controller = new AbortController();
    await live.start(controller.signal);
    try {
      const ended = (): Promise<number> => watchesEnded(kind.group, 'recycleds');
      const before = await ended();
      for (let i = 0; i < 4; i++) {
        await createObject(kind, namespace, { name: `r${i}`, ready });
        await until(() => live.items.size === i + 1, `r${i}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      // Watches of 1 to 2 s over 4 s and more: the server ended at least two, and no change was lost.
      expect((await ended()) - before).toBeGreaterThanOrEqual(2);
      expect([...live.items.keys()]).toHaveLength(4);
    } finally {
      controller.abort();
      await live.stopped();
    }
  });
});

/** How many WATCH requests on a resource the API server has completed, from its own metrics. */
async function watchesEnded(group: string, resource: string): Promise<number> {
  const admin = await adminClient();
  const response = await admin.stream({
    path: '/metrics',
    accept: 'text/plain',
    subject: { verb: 'get', resource: 'metrics' },
  });
  let metrics = '';
  for await (const chunk of response) metrics += String(chunk);
  let total = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    if (
      line.includes('verb="WATCH"') &&
      line.includes(`group="${group}"`) &&
      line.includes(`resource="${resource}"`)
    )
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
