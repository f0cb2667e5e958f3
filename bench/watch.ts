// `npm run bench:watch`: what `kubectl aso status -A --watch` costs a real ASO install to keep open, on a
// local control plane carrying all the real CRDs of ASO v2.20.0 (../shared/real-aso-crds/v2.20.0).
//
// 1. Connections: the watch's peak TCP connections to the API server (counted by a relay in front of it),
//    against the baseline of one HTTP/1.1 connection per watch (KUBECTL_ASO_HTTP1=1, what it did before).
// 2. Memory: the watch's peak RSS (VmHWM) while 10,000 changes arrive and its reader has stopped reading,
//    against the same watch with a reader that keeps up.
//
// The plane lives in .local/bench-watch and is reused (`--down` stops it and removes its data).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeClient } from '../src/lib/kube/client.ts';
import type { KubeObject } from '../src/lib/kube/list.ts';
import { applyObject, type Placement, waitForEstablished } from '../test/control-plane/apply.ts';
import { clientFor, startPlane, stopPlane } from '../test/control-plane/plane.ts';
import { relayTo } from '../test/fixtures/relay.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const stateDir = join(root, '.local/bench-watch');
const bin = join(root, 'bin/kubectl-aso');
const realCrds = resolve(
  process.env.KUBECTL_ASO_SHARED_DIR ?? join(root, '..', 'shared'),
  'real-aso-crds/v2.20.0',
);
const changes = 10_000;
const group = 'benchwatch.azure.com';
const churn: Placement = { group, version: 'v1', plural: 'churns', namespaced: true };

if (process.argv.includes('--down')) {
  await stopPlane(stateDir);
  rmSync(stateDir, { recursive: true, force: true });
  process.exit(0);
}
if (!existsSync(realCrds)) {
  console.error(`bench:watch needs the real ASO CRDs at ${realCrds}`);
  process.exit(2);
}

async function applyRealCrds(admin: KubeClient): Promise<number> {
  const names: string[] = [];
  for (const file of readdirSync(realCrds).filter((name) => name.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(readFileSync(join(realCrds, file), 'utf8'))) {
      const crd = doc.toJS() as KubeObject | null;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      await applyObject(admin, crd);
      names.push(crd.metadata.name);
    }
  }
  for (const name of names) await waitForEstablished(admin, name, 120_000);
  return names.length;
}

async function applyChurnKind(admin: KubeClient): Promise<void> {
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `churns.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'churns', singular: 'churn', kind: 'Churn', listKind: 'ChurnList' },
      versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} } }],
    },
  });
  await waitForEstablished(admin, `churns.${group}`);
  await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'churn' } });
}

/** `status -A --watch -o json` running, with every line it printed. */
interface Watching {
  child: ChildProcess;
  lines: string[];
}

function watch(kubeconfig: string, env: NodeJS.ProcessEnv): Watching {
  const child = spawn(process.execPath, [bin, 'status', '-A', '--watch', '-o', 'json'], {
    env: { ...process.env, ...env, KUBECONFIG: kubeconfig },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  return { child, lines };
}

async function untilLine(watching: Watching, match: (line: string) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (!watching.lines.some(match)) {
    if (Date.now() > deadline) throw new Error(`no ${what} within 10 minutes`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function createChurn(admin: KubeClient, name: string): Promise<void> {
  await applyObject(
    admin,
    { apiVersion: `${group}/v1`, kind: 'Churn', metadata: { name, namespace: 'churn' } },
    churn,
  );
}

/**
 * Waits until the watch's whole view is up: its snapshot printed (the seed object), then a change made
 * after that seen (every type's watch starts together, once every list is done), then a little more.
 */
async function untilUp(watching: Watching, admin: KubeClient): Promise<void> {
  await untilLine(watching, (line) => line.includes('"name":"seed"'), 'snapshot');
  const marker = `marker-${Date.now()}`;
  await createChurn(admin, marker);
  await untilLine(watching, (line) => line.includes(marker), 'change after the snapshot');
  await new Promise((done) => setTimeout(done, 3_000));
}

function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('close', done));
  child.kill('SIGINT');
  child.stdout?.resume();
  await exited;
}

/** Peak connections of a watch over every ASO type, through a relay that counts them. */
async function connectionsOf(
  admin: KubeClient,
  plane: { server: string; kubeconfig: string },
  http1: boolean,
): Promise<number> {
  const relay = await relayTo(plane.server, plane.kubeconfig, stateDir);
  const watching = watch(relay.kubeconfig, http1 ? { KUBECTL_ASO_HTTP1: '1' } : {});
  try {
    await untilUp(watching, admin);
    return relay.connections().peak;
  } finally {
    await stop(watching.child);
    await relay.cut();
  }
}

/** Peak RSS of a watch over every ASO type while `changes` objects are created; `read`: whether it is read. */
async function memoryOf(
  admin: KubeClient,
  kubeconfig: string,
  read: boolean,
  round: number,
): Promise<number> {
  const watching = watch(kubeconfig, {});
  await untilUp(watching, admin);
  if (!read) {
    watching.child.stdout?.removeAllListeners('data');
    watching.child.stdout?.pause();
  }
  let next = 0;
  const create = async (): Promise<void> => {
    while (next < changes) await createChurn(admin, `c${round}-${next++}`);
  };
  await Promise.all(Array.from({ length: 16 }, create));
  await new Promise((done) => setTimeout(done, 2_000));
  const peak = peakRssMb(watching.child.pid);
  await stop(watching.child);
  return peak;
}

const plane = await startPlane(stateDir, { withGenerated: false }); // the real CRDs, not ours, as on a real install
const admin = await clientFor(plane);
console.log(`plane: ${plane.server}; applying the real CRDs of ASO v2.20.0 (first run: a few minutes)`);
const crds = await applyRealCrds(admin);
await applyChurnKind(admin);
await createChurn(admin, 'seed');
const http2Peak = await connectionsOf(admin, plane, false);
const http1Peak = await connectionsOf(admin, plane, true);
console.log(
  `connections watching ${crds + 1} CRDs: ${http2Peak} (baseline, one HTTP/1.1 connection per watch: ${http1Peak})`,
);
console.log(`ratio: ${(http2Peak / http1Peak).toFixed(3)}x the baseline's connections`);
const round = Date.now();
const reading = await memoryOf(admin, plane.kubeconfig, true, round);
const stalled = await memoryOf(admin, plane.kubeconfig, false, round + 1);
console.log(
  `peak RSS over ${changes} changes: reader stopped ${stalled.toFixed(0)} MB (baseline, reader keeping up: ${reading.toFixed(0)} MB)`,
);
console.log(
  `ratio: ${(stalled / reading).toFixed(2)}x (target <= 1.5x: a stopped reader holds the watches, not a queue)`,
);
