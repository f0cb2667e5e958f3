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
import { clientFor, type Plane, startPlane, stopPlane } from '../test/control-plane/plane.ts';
import { allAtHub, createNamespaces, hub, type Kind, kindsOf, seed } from './migrate-fixture.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const stateDir = join(root, '.local/bench-migrate');
const bin = join(root, 'bin/kubectl-aso');
const args = process.argv.slice(2);
const objects = Number(args[args.indexOf('--objects') + 1] ?? 10_000) || 10_000;
const concurrency = 8;

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

if (args.includes('--down')) {
  await stopPlane(stateDir);
  process.exit(0);
}
await stopPlane(stateDir);
const plane = await startPlane(stateDir, { withGenerated: false });
const admin = await clientFor(plane);
await createNamespaces(admin);
const kindCount = kindsOf('plugin').length;
const total = Math.ceil(objects / kindCount) * kindCount;
process.stderr.write(`seeding ${total} objects across ${kindCount} kinds for each of 3 contenders...\n`);
const seeded = {
  baseline: await seed(admin, plane, 'baseline', objects),
  plugin: await seed(admin, plane, 'plugin', objects),
  raw: await seed(admin, plane, 'raw', objects),
};
const rewritten = total + kindCount; // the objects, and the probe of each kind
const baselineMs = await timed(() => baseline(admin, seeded.baseline));
const pluginRun = await plugin(plane, seeded.plugin);
const rawMs = await timed(() => rawLoop(admin, seeded.raw));
const rate = (ms: number) => Math.round((rewritten / ms) * 1000);
const lines = [
  `objects: ${rewritten} across ${kindCount} kinds (each contender its own copy), concurrency ${concurrency}`,
  `baseline (list all, update one by one): ${Math.round(baselineMs)} ms, ${rate(baselineMs)} objects/s`,
  `raw loop (updates only, concurrency ${concurrency}): ${Math.round(rawMs)} ms, ${rate(rawMs)} objects/s`,
  `kubectl aso migrate: ${Math.round(pluginRun.ms)} ms, ${rate(pluginRun.ms)} objects/s, peak RSS ${Math.round(pluginRun.maxRssKb / 1024)} MB`,
  `plugin vs baseline: ${(baselineMs / pluginRun.ms).toFixed(2)}x the objects per second (target >= 5x)`,
  `plugin vs raw loop: ${(pluginRun.ms / rawMs).toFixed(2)}x the time (target <= 1.25x)`,
  `all objects at the hub in etcd: baseline ${await allAtHub(plane, seeded.baseline)}, plugin ${await allAtHub(plane, seeded.plugin)}, raw ${await allAtHub(plane, seeded.raw)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
await stopPlane(stateDir);
