import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../../control-plane/plane.ts';
import { alpha, hub, type PlainCrd, plainObjectsAtAlpha, storedPlain } from './plain-crd.ts';

// A plane of its own, with lists served by etcd rather than the watch cache, so that compacting etcd really
// expires a continue token (as in test/lib/kube/expired-continue.test.ts), without disturbing other files.
const stateDir = resolve(
  new URL('../../..', import.meta.url).pathname,
  `.local/test-migrate-expiry-${process.pid}`,
);
const crd: PlainCrd = { group: 'expiry.azure.com', plural: 'widgets', name: 'widgets.expiry.azure.com' };
let plane: Plane;
let admin: KubeClient;

beforeAll(async () => {
  plane = await startPlane(stateDir, { apiserverArgs: ['--watch-cache=false'], withGenerated: false });
  admin = await clientFor(plane);
}, 180_000);
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

describe('a migration whose continue token expires mid-run, on a real control plane served by etcd', () => {
  it('recovers from the 410 and still rewrites every object exactly once before cleaning storedVersions', async () => {
    const namespace = 'expiry';
    const total = await plainObjectsAtAlpha(admin, plane, crd, namespace, 12);
    // The 12, and any probe written before the API server applied the new storage version.
    const atAlpha = (await storedPlain(plane, crd)).filter(
      (object) => object.apiVersion === `${crd.group}/${alpha}`,
    );
    expect(atAlpha.length).toBeGreaterThanOrEqual(12);

    // Compact etcd once, when the rewrite asks for its second page (after its first batch): the token it
    // saved then names a revision etcd no longer has.
    let compacted = 0;
    let firstBatchDone = false;
    const expiring: KubeClient = Object.assign(Object.create(admin) as KubeClient, {
      request: async <T>(request: Parameters<KubeClient['request']>[0]): Promise<T> => {
        if (request.query?.continue && firstBatchDone && compacted === 0) {
          compacted++;
          await compactEtcd();
        }
        return admin.request<T>(request);
      },
    });
    const log: string[] = [];
    const options = migrateOptionsOf(
      {
        to: 'v1api',
        kind: [crd.name],
        strategy: 'server',
        'batch-size': 5,
        concurrency: 2,
        'dry-run': false,
        restart: false,
        'state-namespace': namespace,
      },
      'default',
    );
    const { report, exit } = await runMigration(expiring, options, {
      log: (line) => {
        log.push(line);
        if (line.includes(': batch 1:')) firstBatchDone = true;
      },
      interrupted: () => false,
    });
    expect(compacted).toBe(1);
    expect(log.some((line) => line.includes('the continue token expired'))).toBe(true);
    expect(exit).toBe('ok');
    const [result] = report.crds;
    expect(result).toMatchObject({ outcome: 'finished', storedVersionsAfter: [hub], failed: [] });
    expect((result?.migrated ?? 0) + (result?.alreadyCurrent ?? 0)).toBe(total);
    expect(result?.migrated).toBe(atAlpha.length);
    expect(
      (await storedPlain(plane, crd)).filter((object) => object.apiVersion !== `${crd.group}/${hub}`),
    ).toEqual([]);
  });
});
