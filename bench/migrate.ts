// `npm run bench:migrate [-- --objects N]`: `kubectl aso migrate --to v1api --concurrency 8` on a local control
// plane holding N objects (default 10,000) across 4 kinds stored at an alpha storage version, against
//  - the baseline: what the operator's tool does today (`asoctl clean crds`: list everything at once, then
//    update one object at a time, in order), and
//  - the raw loop: the same updates at the same concurrency with no plan, checkpoints or checks (the write
//    limit of this API server).
// Each contender gets its own 4 CRDs (conversion None, so that no webhook is measured) with the same objects,
// stored at `v1alpha1api20210601storage` before the storage flag moves to `v1api20210601storage`. Prints
// objects per second, the ratios against the targets (>= 5x the baseline, <= 1.25x the raw loop's time), the
// plugin's peak RSS, and checks in etcd that every object of every contender ended at the hub.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KubeClient } from '../src/lib/kube/client.ts';
import type { KubeObject } from '../src/lib/kube/list.ts';
import { resourcePath } from '../src/lib/kube/paths.ts';
import { mapConcurrently } from '../src/lib/migrate/pool.ts';
import { applyObject, waitForEstablished } from '../test/control-plane/apply.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../test/control-plane/plane.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const stateDir = join(root, '.local/bench-migrate');
const bin = join(root, 'bin/kubectl-aso');
const args = process.argv.slice(2);
const objects = Number(args[args.indexOf('--objects') + 1] ?? 10_000) || 10_000;
const kinds = ['ResourceGroup', 'FlexibleServer', 'StorageAccount', 'Vault'];
const namespaces = 10;
const alpha = 'v1alpha1api20210601storage';
const hub = 'v1api20210601storage';
const concurrency = 8;

interface Kind {
  group: string;
  plural: string;
  kind: string;
  name: string;
}

function kindsOf(contender: string): Kind[] {
  const group = `${contender}.benchmigrate.azure.com`;
  return kinds.map((kind) => {
    const plural = `${kind.toLowerCase()}s`;
    return { group, plural, kind, name: `${plural}.${group}` };
  });
}

async function applyCrd(admin: KubeClient, kind: Kind, storage: string): Promise<void> {
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: kind.name },
    spec: {
      group: kind.group,
      scope: 'Namespaced',
      names: {
        plural: kind.plural,
        singular: kind.kind.toLowerCase(),
        kind: kind.kind,
        listKind: `${kind.kind}List`,
      },
      conversion: { strategy: 'None' },
      versions: [alpha, hub].map((name) => ({ name, served: true, storage: name === storage, schema })),
    },
  });
  await waitForEstablished(admin, kind.name);
}

function objectOf(kind: Kind, index: number): KubeObject {
  return {
    apiVersion: `${kind.group}/${alpha}`,
    kind: kind.kind,
    metadata: { name: `obj-${String(index).padStart(5, '0')}`, namespace: `bench-${index % namespaces}` },
    spec: {
      owner: { name: 'rg' },
      location: 'westeurope',
      azureName: `resource-${index}`,
      tags: { team: 'bench', index: String(index) },
      description: 'x'.repeat(400),
    },
  };
}

/** Creates the contender's CRDs at the alpha storage version, its objects, then makes the hub the storage version. */
async function seed(admin: KubeClient, plane: Plane, contender: string): Promise<Kind[]> {
  const crds = kindsOf(contender);
  for (const kind of crds) await applyCrd(admin, kind, alpha);
  const perKind = Math.ceil(objects / crds.length);
  for (const kind of crds) {
    const indexes = Array.from({ length: perKind }, (_, index) => index);
    await mapConcurrently(indexes, 16, (index) =>
      admin.request({
        method: 'POST',
        path: resourcePath(
          { group: kind.group, version: alpha, plural: kind.plural },
          `bench-${index % namespaces}`,
        ),
        body: objectOf(kind, index),
        subject: { verb: 'create', resource: kind.name },
      }),
    );
  }
  for (const kind of crds) await applyCrd(admin, kind, hub);
  // The API server picks up the new storage version a moment later: wait until a new object lands there.
  for (const kind of crds) {
    for (let attempt = 0; ; attempt++) {
      const probe = { ...objectOf(kind, 90_000 + attempt), apiVersion: `${kind.group}/${hub}` };
      await admin.request({
        method: 'POST',
        path: resourcePath({ group: kind.group, version: hub, plural: kind.plural }, 'bench-0'),
        body: probe,
        subject: { verb: 'create', resource: kind.name },
      });
      const stored = await etcdValues(plane, kind, `bench-0/${probe.metadata.name}`);
      if (stored[0]?.apiVersion === `${kind.group}/${hub}`) break;
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  return crds;
}

async function etcdValues(plane: Plane, kind: Kind, suffix = ''): Promise<KubeObject[]> {
  const prefix = `/registry/${kind.group}/${kind.plural}/${suffix}`;
  const end = suffix ? `${prefix}\0` : `${prefix.slice(0, -1)}0`;
  const answer = await fetch(`${plane.etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({
      key: Buffer.from(prefix).toString('base64'),
      range_end: Buffer.from(end).toString('base64'),
    }),
  });
  const body = (await answer.json()) as { kvs?: Array<{ value: string }> };
  return (body.kvs ?? []).map(
    (kv) => JSON.parse(Buffer.from(kv.value, 'base64').toString('utf8')) as KubeObject,
  );
}

/** What the operator's tool does today: one unpaged list per CRD, then one update at a time, in order. */
async function baseline(admin: KubeClient, crds: Kind[]): Promise<void> {
  for (const kind of crds) {
    const type = { group: kind.group, version: hub, plural: kind.plural };
    const list = await admin.request<{ items: KubeObject[] }>({
      path: resourcePath(type),
      subject: { verb: 'list', resource: kind.name },
    });
    for (const object of list.items) {
      await admin.request({
        method: 'PUT',
        path: resourcePath(type, object.metadata.namespace, object.metadata.name),
        body: object,
        subject: { verb: 'update', resource: kind.name },
      });
    }
  }
}

/** The write limit: every update at the same concurrency as the plugin, and nothing else. */
async function rawLoop(admin: KubeClient, crds: Kind[]): Promise<void> {
  for (const kind of crds) {
    const type = { group: kind.group, version: hub, plural: kind.plural };
    const list = await admin.request<{ items: KubeObject[] }>({
      path: resourcePath(type),
      subject: { verb: 'list', resource: kind.name },
    });
    await mapConcurrently(list.items, concurrency, (object) =>
      admin.request({
        method: 'PUT',
        path: resourcePath(type, object.metadata.namespace, object.metadata.name),
        body: object,
        subject: { verb: 'update', resource: kind.name },
      }),
    );
  }
}

/** Runs the plugin over the contender's CRDs; its time and peak RSS (GNU time). */
function plugin(plane: Plane, crds: Kind[]): Promise<{ ms: number; maxRssKb: number }> {
  const useTime = existsSync('/usr/bin/time');
  const cli = [
    bin,
    'migrate',
    '--to',
    'v1api',
    ...crds.flatMap((kind) => ['--kind', kind.name]),
    '--concurrency',
    String(concurrency),
    '--kubeconfig',
    plane.kubeconfig,
    '--context',
    'admin',
    '-o',
    'json',
  ];
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      useTime ? '/usr/bin/time' : process.execPath,
      useTime ? ['-f', '%M', process.execPath, ...cli] : cli,
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) fail(new Error(`the plugin exited ${code}: ${stderr.slice(-1000)}`));
      done({ ms, maxRssKb: useTime ? Number(stderr.trim().split('\n').at(-1)) : Number.NaN });
    });
  });
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function allAtHub(plane: Plane, crds: Kind[]): Promise<boolean> {
  for (const kind of crds) {
    const stored = await etcdValues(plane, kind);
    if (stored.some((object) => object.apiVersion !== `${kind.group}/${hub}`)) return false;
  }
  return true;
}

if (args.includes('--down')) {
  await stopPlane(stateDir);
  process.exit(0);
}
await stopPlane(stateDir);
const plane = await startPlane(stateDir, { withGenerated: false });
const admin = await clientFor(plane);
for (let index = 0; index < namespaces; index++) {
  await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `bench-${index}` } });
}
const total = Math.ceil(objects / kinds.length) * kinds.length;
process.stderr.write(`seeding ${total} objects across ${kinds.length} kinds for each of 3 contenders...\n`);
const seeded = {
  baseline: await seed(admin, plane, 'baseline'),
  plugin: await seed(admin, plane, 'plugin'),
  raw: await seed(admin, plane, 'raw'),
};
const rewritten = total + kinds.length; // the objects, and the probe of each kind
const baselineMs = await timed(() => baseline(admin, seeded.baseline));
const pluginRun = await plugin(plane, seeded.plugin);
const rawMs = await timed(() => rawLoop(admin, seeded.raw));
const rate = (ms: number) => Math.round((rewritten / ms) * 1000);
const lines = [
  `objects: ${rewritten} across ${kinds.length} kinds (each contender its own copy), concurrency ${concurrency}`,
  `baseline (list all, update one by one): ${Math.round(baselineMs)} ms, ${rate(baselineMs)} objects/s`,
  `raw loop (updates only, concurrency ${concurrency}): ${Math.round(rawMs)} ms, ${rate(rawMs)} objects/s`,
  `kubectl aso migrate: ${Math.round(pluginRun.ms)} ms, ${rate(pluginRun.ms)} objects/s, peak RSS ${Math.round(pluginRun.maxRssKb / 1024)} MB`,
  `plugin vs baseline: ${(baselineMs / pluginRun.ms).toFixed(2)}x the objects per second (target >= 5x)`,
  `plugin vs raw loop: ${(pluginRun.ms / rawMs).toFixed(2)}x the time (target <= 1.25x)`,
  `all objects at the hub in etcd: baseline ${await allAtHub(plane, seeded.baseline)}, plugin ${await allAtHub(plane, seeded.plugin)}, raw ${await allAtHub(plane, seeded.raw)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
await stopPlane(stateDir);
