import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { listPages } from '../../../src/lib/kube/list.ts';
import { applyObject } from '../../control-plane/apply.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../../control-plane/plane.ts';

// A plane of its own: lists served by etcd rather than the watch cache (so that compaction really expires
// a continue token), and compaction there disturbs no other test file's watches.
const stateDir = resolve(new URL('../../..', import.meta.url).pathname, `.local/test-expiry-${process.pid}`);
let plane: Plane;
let admin: KubeClient;

beforeAll(async () => {
  plane = await startPlane(stateDir, { apiserverArgs: ['--watch-cache=false'], withGenerated: false });
  admin = await clientFor(plane);
}, 120_000);
afterAll(() => stopPlane(stateDir));

async function compactEtcd(): Promise<void> {
  const range = await fetch(`${plane.etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: 'AA==', count_only: true }),
  });
  const revision = Number(((await range.json()) as { header: { revision: string } }).header.revision);
  const compacted = await fetch(`${plane.etcdUrl}/v3/kv/compaction`, {
    method: 'POST',
    body: JSON.stringify({ revision, physical: true }),
  });
  expect(compacted.status).toBe(200);
}

describe('a list whose continue token expires, on a real control plane served by etcd', () => {
  it('resumes after the 410 Expired and returns every object exactly once', async () => {
    const namespace = 'expiry';
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    const expected: string[] = [];
    for (let index = 0; index < 10; index++) {
      await applyObject(admin, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm${index}`, namespace },
      });
      expected.push(`cm${index}`);
    }
    const requests: string[] = [];
    const watched: KubeClient = Object.assign(Object.create(admin) as KubeClient, {
      request: async <T>(request: Parameters<KubeClient['request']>[0]): Promise<T> => {
        requests.push(String(request.query?.continue ?? ''));
        return admin.request<T>(request);
      },
    });
    const listed: { resourceVersion?: string } = {};
    const pages = listPages(
      watched,
      { group: '', version: 'v1', plural: 'configmaps', namespace, pageSize: 3 },
      listed,
    );
    const seen: string[] = [];
    const first = await pages.next();
    seen.push(...(first.done ? [] : first.value).map((item) => item.metadata.name));
    await applyObject(admin, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace } });
    await compactEtcd();
    for await (const page of pages) seen.push(...page.map((item) => item.metadata.name));
    expect(seen.filter((name) => name !== 'bump').sort()).toEqual(expected.sort());
    expect(new Set(seen).size).toBe(seen.length);
    // The expired token was sent once and answered 410; the list went on with the token the 410 carried.
    expect(requests.length).toBeGreaterThan(4);
    expect(listed.resourceVersion).toBeUndefined();
  });
});
