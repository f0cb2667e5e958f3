import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/lib/kube/client.ts';
import { RequestCancelled } from '../../../src/lib/kube/errors.ts';
import { resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';
import { listAll } from '../../../src/lib/kube/list.ts';
import { forEachBounded } from '../../../src/lib/status/bounded.ts';
import { relayToPlane } from '../../fixtures/relay.ts';

const namespaces = { group: '', version: 'v1', plural: 'namespaces' };

describe('cancelling requests on the real control plane', () => {
  it('never opens a connection for a request whose signal has already fired', async () => {
    const relay = await relayToPlane();
    try {
      const client = new KubeClient(await resolveKubeconfig({ kubeconfig: relay.kubeconfig }));
      await expect(listAll(client, { ...namespaces, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
        RequestCancelled,
      );
      expect(relay.connections().peak).toBe(0);
    } finally {
      await relay.cut();
    }
  });

  it('stops a request the network has stalled as soon as its signal fires', async () => {
    const relay = await relayToPlane();
    try {
      const client = new KubeClient(await resolveKubeconfig({ kubeconfig: relay.kubeconfig }));
      await listAll(client, namespaces); // the connection is up and kept alive
      relay.hold();
      const controller = new AbortController();
      const listing = listAll(client, { ...namespaces, signal: controller.signal });
      const outcome = Promise.race([
        listing.then(
          () => 'answered',
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still running'), 300)),
      ]);
      expect(await outcome).toBe('still running');
      controller.abort();
      await expect(listing).rejects.toBeInstanceOf(RequestCancelled);
    } finally {
      await relay.cut();
    }
  });
});

describe('forEachBounded', () => {
  it('starts no further task once one has failed', async () => {
    const started: number[] = [];
    const run = forEachBounded([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('fatal');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await expect(run).rejects.toThrow('fatal');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(started).toEqual([1, 2]);
  });
});
