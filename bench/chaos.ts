// `npm run bench:chaos [-- --kills N --objects M --seed S]`: `kubectl aso migrate --to v1api` SIGKILLed at N
// random instants (default 100) on a local control plane holding M objects (default 4,000) across 2 kinds
// stored at an alpha storage version, resumed after each kill, then run to the end. Against a baseline
// measured in the same run (the same migration on its own copy of the objects, never killed), it checks:
//  - nothing lost: every object is in etcd at the hub with the spec it was written with;
//  - nothing duplicated or left behind: the same object names, `storedVersions` holding only the hub, and
//    no checkpoint ConfigMap left in the state namespace;
//  - at most one batch redone per kill: the audit log's updates, each object counted once per run.
// It prints the kills, the objects redone per kill against the batch size, and the ratio of objects written
// (summed over the killed runs and the last one) to the baseline's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { KubeClient } from '../src/lib/kube/client.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../test/control-plane/plane.ts';
import { randomFrom } from '../test/fixtures/seeded-random.ts';
import { createNamespaces, etcdValues, hub, type Kind, objectOf, seed } from './migrate-fixture.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const stateDir = join(root, '.local/bench-chaos');
const bin = join(root, 'bin/kubectl-aso');
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const kills = option('kills', 100);
const objects = option('objects', 4_000);
const seedNumber = option('seed', Date.now() % 100_000);
const batchSize = 20;
const concurrency = 4;
const stateNamespace = 'bench-0';

function migrateArgs(plane: Plane, crds: Kind[]): string[] {
  return [
    bin,
    'migrate',
    '--to',
    'v1api',
    ...crds.flatMap((kind) => ['--kind', kind.name]),
    '--batch-size',
    String(batchSize),
    '--concurrency',
    String(concurrency),
    '--state-namespace',
    stateNamespace,
    '--kubeconfig',
    plane.kubeconfig,
    '--context',
    'admin',
    '-o',
    'json',
  ];
}

/**
 * Runs the plugin; with `killAfter`, SIGKILLs it `killAfter.ms` after it logs its `killAfter.batches`-th
 * finished batch (0: after it starts). Resolves with whether the kill landed and the exit code.
 */
function run(
  cli: string[],
  killAfter?: { batches: number; ms: number },
): Promise<{ killed: boolean; code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, cli, {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = 0;
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      if (killAfter) timer ??= setTimeout(() => child.kill('SIGKILL'), killAfter.ms);
    };
    if (killAfter?.batches === 0) arm();
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      seen += text.split(': batch ').length - 1;
      if (killAfter && seen >= killAfter.batches) arm();
    });
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ killed: signal === 'SIGKILL', code, stderr: stderr.slice(-2000) });
    });
  });
}

interface AuditEvent {
  verb: string;
  objectRef?: { apiGroup?: string; resource?: string; namespace?: string; name?: string };
}

function auditEvents(plane: Plane): AuditEvent[] {
  return readFileSync(plane.auditLog, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** The objects of `group` updated since the audit log held `since` events, each named once (kinds share names). */
function writtenSince(plane: Plane, group: string, since: number): Set<string> {
  return new Set(
    auditEvents(plane)
      .slice(since)
      .filter((event) => event.verb === 'update' && event.objectRef?.apiGroup === group)
      .map((event) => `${event.objectRef?.resource}/${event.objectRef?.namespace}/${event.objectRef?.name}`),
  );
}

/** What must hold when a contender's migration has ended; the problems found, none when all is well. */
async function problemsOf(admin: KubeClient, plane: Plane, crds: Kind[], perKind: number): Promise<string[]> {
  const problems: string[] = [];
  for (const kind of crds) {
    const stored = await etcdValues(plane, kind);
    const names = new Set(stored.map((object) => `${object.metadata.namespace}/${object.metadata.name}`));
    if (stored.length !== names.size || names.size !== perKind + 1)
      problems.push(`${kind.name}: ${stored.length} values for ${names.size} names, expected ${perKind + 1}`);
    for (const object of stored) {
      if (object.apiVersion !== `${kind.group}/${hub}`)
        problems.push(`${kind.name} ${object.metadata.name}: stored at ${object.apiVersion}`);
      const index = Number(object.metadata.name.slice(4));
      if (index < 90_000 && !isDeepStrictEqual(object.spec, objectOf(kind, index).spec))
        problems.push(`${kind.name} ${object.metadata.name}: spec changed`);
    }
    const crd = await admin.request<{ status?: { storedVersions?: string[] } }>({
      path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${kind.name}`,
      subject: { verb: 'get', resource: 'customresourcedefinitions' },
    });
    const storedVersions = crd.status?.storedVersions ?? [];
    if (storedVersions.join() !== hub) problems.push(`${kind.name}: storedVersions ${storedVersions.join()}`);
  }
  const left = await admin.request<{ items: Array<{ metadata: { name: string } }> }>({
    path: `/api/v1/namespaces/${stateNamespace}/configmaps`,
    subject: { verb: 'list', resource: 'configmaps' },
  });
  const checkpoints = left.items.filter((item) =>
    crds.some((kind) => item.metadata.name.includes(kind.group)),
  );
  if (checkpoints.length > 0)
    problems.push(`checkpoints left: ${checkpoints.map((c) => c.metadata.name).join(', ')}`);
  return problems;
}

if (args.includes('--down')) {
  await stopPlane(stateDir);
  process.exit(0);
}
await stopPlane(stateDir);
const plane = await startPlane(stateDir, { withGenerated: false });
const admin = await clientFor(plane);
await createNamespaces(admin);
const kindCount = 2;
const perKind = Math.ceil(objects / kindCount);
process.stderr.write(`seeding ${perKind * kindCount} objects across ${kindCount} kinds, twice...\n`);
const baselineCrds = await seed(admin, plane, 'baseline', objects, kindCount);
const chaosCrds = await seed(admin, plane, 'chaos', objects, kindCount);

const baselineSince = auditEvents(plane).length;
const baselineRun = await run(migrateArgs(plane, baselineCrds));
if (baselineRun.code !== 0)
  throw new Error(`the baseline run exited ${baselineRun.code}: ${baselineRun.stderr}`);
const baselineWrites = writtenSince(plane, baselineCrds[0]?.group ?? '', baselineSince).size;

const random = randomFrom(seedNumber);
const group = chaosCrds[0]?.group ?? '';
const written = new Set<string>();
let landed = 0;
let runs = 0;
let objectWrites = 0;
let redoneTotal = 0;
let redoneMax = 0;
let finished = false;
process.stderr.write(`killing the migration ${kills} times (seed ${seedNumber})...\n`);
while (landed < kills) {
  const since = auditEvents(plane).length;
  const batches = Math.floor(random() * 3);
  const outcome = await run(migrateArgs(plane, chaosCrds), {
    batches,
    ms: Math.floor(random() * (batches === 0 ? 1500 : 60)),
  });
  runs++;
  const byRun = writtenSince(plane, group, since);
  const redone = [...byRun].filter((name) => written.has(name)).length;
  redoneTotal += redone;
  redoneMax = Math.max(redoneMax, redone);
  objectWrites += byRun.size;
  for (const name of byRun) written.add(name);
  if (outcome.killed) landed++;
  else if (outcome.code === 0) {
    finished = true;
    break;
  } else throw new Error(`a run exited ${outcome.code} without being killed: ${outcome.stderr}`);
  if (landed % 10 === 0) process.stderr.write(`  ${landed} kills\n`);
}
if (!finished) {
  const since = auditEvents(plane).length;
  const last = await run(migrateArgs(plane, chaosCrds));
  if (last.code !== 0) throw new Error(`the final run exited ${last.code}: ${last.stderr}`);
  const byRun = writtenSince(plane, group, since);
  const redone = [...byRun].filter((name) => written.has(name)).length;
  redoneTotal += redone;
  redoneMax = Math.max(redoneMax, redone);
  objectWrites += byRun.size;
  runs++;
}
const problems = [
  ...(await problemsOf(admin, plane, baselineCrds, perKind)),
  ...(await problemsOf(admin, plane, chaosCrds, perKind)),
];
const lines = [
  `objects: ${perKind * kindCount} across ${kindCount} kinds (+1 probe each), batch size ${batchSize}, concurrency ${concurrency}, seed ${seedNumber}`,
  `kills landed: ${landed} over ${runs} runs${finished ? ' (the migration finished before all kills landed)' : ''}`,
  `baseline (one run, never killed): ${baselineWrites} objects written`,
  `killed and resumed: ${objectWrites} object writes, ${redoneTotal} redone in all, at most ${redoneMax} in one resume (batch size ${batchSize}, target <= ${batchSize} per kill)`,
  `ratio: ${(objectWrites / baselineWrites).toFixed(3)}x the baseline's writes`,
  `lost, duplicated or left behind: ${problems.length === 0 ? 'nothing' : problems.slice(0, 20).join('; ')}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
await stopPlane(stateDir);
process.exit(problems.length === 0 && redoneMax <= batchSize ? 0 : 1);
