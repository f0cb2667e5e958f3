import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../../control-plane/plane.ts';

// A plane of its own, with lists served by etcd rather than the watch cache, so that compacting etcd really
// expires a continue token (as in test/lib/kube/expired-continue.test.ts), without disturbing other files.
const stateDir = resolve(
  new URL('../../..', import.meta.url).pathname,
  `.local/test-migrate-expiry-${process.pid}`,
);
const group = 'expiry.azure.com';
const plural = 'widgets';
const alpha = 'v1alpha1api20210601storage';
const hub = 'v1api20210601storage';
let plane: Plane;
let admin: KubeClient;

beforeAll(async () => {
  plane = await startPlane(stateDir, { apiserverArgs: ['--watch-cache=false'], withGenerated: false });
  admin = await clientFor(plane);
}, 180_000);
afterAll(() => stopPlane(stateDir));

async function applyCrd(storage: string): Promise<void> {
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      conversion: { strategy: 'None' },
      versions: [alpha, hub].map((name) => ({ name, served: true, storage: name === storage, schema })),
    },
  });
  await waitForEstablished(admin, `${plural}.${group}`);
}

async function stored(): Promise<KubeObject[]> {
  const prefix = `/registry/${group}/${plural}/`;
  const answer = await fetch(`${plane.etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({
      key: Buffer.from(prefix).toString('base64'),
      range_end: Buffer.from(`${prefix.slice(0, -1)}0`).toString('base64'),
    }),
  });
  const body = (await answer.json()) as { kvs?: Array<{ value: string }> };
  return (body.kvs ?? []).map(
    (kv) => JSON.parse(Buffer.from(kv.value, 'base64').toString('utf8')) as KubeObject,
  );
}

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
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await applyCrd(alpha);
    for (let index = 0; index < 12; index++) {
      await admin.request({
        method: 'POST',
        path: resourcePath({ group, version: alpha, plural }, namespace),
        body: {
          apiVersion: `${group}/${alpha}`,
          kind: 'Widget',
          metadata: { name: `w${index}` },
          spec: { index },
        },
        subject: { verb: 'create', resource: plural },
      });
    }
    await applyCrd(hub);
    // Wait until the API server writes at the hub: a new object lands there.
    for (let attempt = 0; ; attempt++) {
      const name = `probe${attempt}`;
      await admin.request({
        method: 'POST',
        path: resourcePath({ group, version: hub, plural }, namespace),
        body: { apiVersion: `${group}/${hub}`, kind: 'Widget', metadata: { name } },
        subject: { verb: 'create', resource: plural },
      });
      const probe = (await stored()).find((object) => object.metadata.name === name);
      if (probe?.apiVersion === `${group}/${hub}`) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    const total = (await stored()).length;

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
        kind: [`${plural}.${group}`],
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
    expect(result?.migrated).toBe(12);
    expect((await stored()).filter((object) => object.apiVersion !== `${group}/${hub}`)).toEqual([]);
  });
});
