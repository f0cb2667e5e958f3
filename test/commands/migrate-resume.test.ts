import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { resourcePath } from '../../src/lib/kube/paths.ts';
import type { CrdCheckpoint } from '../../src/lib/migrate/checkpoint.ts';
import { stateConfigMapName } from '../../src/lib/migrate/checkpoint-configmap.ts';
import type { MigrationReport } from '../../src/lib/migrate/report.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, auditEvents, testPlane } from '../fixtures/cluster.ts';
import { randomFrom } from '../fixtures/seeded-random.ts';
import {
  alphaStorage,
  crdStoredAtAlpha,
  hubStorage,
  type RenamingWebhook,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
  type TestCrd,
} from '../lib/migrate/support.ts';

const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;
const batchSize = 3;
const objects = 150;

let webhook: RenamingWebhook;
let admin: KubeClient;

beforeAll(async () => {
  admin = await adminClient();
  webhook = await startRenamingWebhook(testPlane());
});
afterAll(() => webhook.close());

function migrateArgs(crd: TestCrd, namespace: string): string[] {
  const plane = testPlane();
  return [
    'migrate',
    '--to',
    'v',
    '--kind',
    crd.name,
    '--batch-size',
    String(batchSize),
    '--concurrency',
    '1',
    '--state-namespace',
    namespace,
    '--kubeconfig',
    plane.kubeconfig,
    '--context',
    plane.contexts.admin,
    '-o',
    'json',
  ];
}

/**
 * Starts the plugin and sends `signal` as soon as it logs its `afterBatch`-th finished batch; resolves at
 * exit. A batch is logged before its checkpoint is saved, so a test that needs a saved batch waits for
 * the log of the next one.
 */
function runUntilFirstBatch(
  args: string[],
  signal: NodeJS.Signals,
  afterBatch = 1,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && new RegExp(`: batch ${afterBatch}: `).test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', reject);
    child.on('close', (code, killedBy) => resolve({ code, signal: killedBy, stdout, stderr }));
  });
}

/**
 * Starts the plugin and SIGKILLs it at a chosen instant: `delayMs` after it logs its `batches`-th finished
 * batch (0: after it starts, while it plans or writes its first batch). Progress-based rather than
 * time-based, so that ten kills land before the migration can finish on a fast machine too.
 */
function runAndKill(args: string[], batches: number, delayMs: number): Promise<{ killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs);
    };
    if (batches === 0) arm();
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split(': batch ').length - 1;
      if (seen >= batches) arm();
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL' });
    });
  });
}

async function checkpointIn(namespace: string, crd: TestCrd): Promise<CrdCheckpoint> {
  const configMap = await admin.request<{ data: Record<string, string> }>({
    path: resourcePath(
      { group: '', version: 'v1', plural: 'configmaps' },
      namespace,
      stateConfigMapName(crd.name),
    ),
    subject: { verb: 'get', resource: 'configmaps' },
  });
  return JSON.parse(configMap.data['checkpoint.json'] ?? '') as CrdCheckpoint;
}

/**
 * The CRD's objects (the probe that proved the hub in effect aside) written since the audit log held
 * `since` events, each named once: a write the client retried (a timeout under load, then a 409 and a
 * no-op rewrite) is still one object written, which is what "at most one batch redone" is about.
 */
function objectsWrittenSince(crd: TestCrd, since = 0): Set<string> {
  return new Set(
    auditEvents()
      .slice(since)
      .filter(
        (event) =>
          event.verb === 'update' &&
          event.objectRef?.apiGroup === crd.group &&
          event.objectRef.name !== 'storage-probe',
      )
      .map((event) => `${event.objectRef?.namespace ?? ''}/${event.objectRef?.name ?? ''}`),
  );
}

/** How many objects two runs both wrote: the objects the later run redid. */
function redone(earlier: Set<string>, later: Set<string>): number {
  return [...later].filter((name) => earlier.has(name)).length;
}

async function expectAllAtHub(crd: TestCrd, count = objects): Promise<void> {
  const stored = await storedObjects(testPlane(), crd);
  expect(stored).toHaveLength(count + 1);
  expect(stored.filter((object) => object.apiVersion !== `${crd.group}/${hubStorage}`)).toEqual([]);
  expect(await storedVersions(admin, crd)).toEqual([hubStorage]);
}

describe('kubectl aso migrate resuming on the real control plane', () => {
  it('resumes after SIGKILL mid-run: nothing lost, at most one batch redone', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, objects);
    const args = migrateArgs(crd, namespace);
    const killed = await runUntilFirstBatch(args, 'SIGKILL', 2);
    expect(killed.signal).toBe('SIGKILL');
    const saved = await checkpointIn(namespace, crd);
    expect(saved.listed).toBe(false);
    expect(saved.batches).toBeGreaterThanOrEqual(1);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
    const auditBeforeResume = auditEvents().length;
    const writtenBeforeResume = objectsWrittenSince(crd);

    const resumed = await runCli(args);
    expect(resumed.stderr).toMatch(new RegExp(`resuming after batch ${saved.batches}`));
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout) as MigrationReport;
    const [result] = report.crds;
    expect(result).toMatchObject({
      outcome: 'finished',
      storedVersionsAfter: [hubStorage],
      deleted: 0,
      failed: [],
    });
    // Every object was counted once: migrated by one run, or found current (the probe, and what the
    // killed run did in the batch it was killed in, which the resumed run redid as no-ops).
    expect((result?.migrated ?? 0) + (result?.alreadyCurrent ?? 0)).toBe(objects + 1);
    expect(result?.alreadyCurrent).toBeLessThanOrEqual(1 + batchSize);
    await expectAllAtHub(crd);
    // The resumed run wrote every object not yet in a saved batch, plus at most the batch in flight.
    const writtenByResume = objectsWrittenSince(crd, auditBeforeResume);
    expect(writtenByResume.size).toBeLessThanOrEqual(objects - saved.batches * batchSize + batchSize);
    expect(objectsWrittenSince(crd).size).toBe(objects);
    expect(redone(writtenBeforeResume, writtenByResume)).toBeLessThanOrEqual(batchSize);
  }, 240_000);

  it('stops after the batch in flight on SIGINT with the documented exit code, and resumes', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, objects);
    const args = migrateArgs(crd, namespace);
    const interrupted = await runUntilFirstBatch(args, 'SIGINT');
    expect(interrupted.code).toBe(21);
    expect(interrupted.stderr).toMatch(/interrupted: finishing the batch in flight/);
    const partial = JSON.parse(interrupted.stdout) as MigrationReport;
    expect(partial.crds[0]).toMatchObject({
      outcome: 'interrupted',
      storedVersionsAfter: [alphaStorage, hubStorage],
    });
    const saved = await checkpointIn(namespace, crd);
    expect(saved.inFlight).toBeUndefined();
    expect(saved.counts.migrated + saved.counts.alreadyCurrent).toBe(saved.batches * batchSize);
    const auditBeforeResume = auditEvents().length;
    const writtenBeforeResume = objectsWrittenSince(crd);

    const resumed = await runCli(args);
    expect(resumed.code).toBe(0);
    const result = (JSON.parse(resumed.stdout) as MigrationReport).crds[0];
    expect(result).toMatchObject({ outcome: 'finished', migrated: objects, alreadyCurrent: 1 });
    await expectAllAtHub(crd);
    expect(objectsWrittenSince(crd).size).toBe(objects);
    // The interrupted run finished its batch in flight, so the resumed run redid nothing.
    expect(redone(writtenBeforeResume, objectsWrittenSince(crd, auditBeforeResume))).toBe(0);
  }, 240_000);

  it('survives ten SIGKILLs at random instants: nothing lost, at most one batch redone per kill', async () => {
    // Enough objects that ten killed runs cannot finish the migration between them (each run is killed
    // within a few batches, or within 400 ms of its start), so every run up to the tenth is really killed.
    const manyObjects = 240;
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, manyObjects);
    const args = migrateArgs(crd, namespace);
    const seed = Number(process.env.MIGRATE_KILL_SEED ?? Date.now() % 100_000);
    const random = randomFrom(seed);
    let kills = 0;
    const written = new Set<string>();
    let redoneByResumes = 0;
    // Each run's writes, named once, against what the runs before it wrote.
    const account = (since: number): void => {
      const byRun = objectsWrittenSince(crd, since);
      redoneByResumes += redone(written, byRun);
      for (const name of byRun) written.add(name);
    };
    for (let run = 0; kills < 10 && run < 30; run++) {
      const batches = Math.floor(random() * 4);
      const since = auditEvents().length;
      const outcome = await runAndKill(args, batches, Math.floor(random() * (batches === 0 ? 400 : 40)));
      account(since);
      if (outcome.killed) kills++;
      else break;
    }
    // A kill can land after a run finished its work (the stored versions cleaned) but before it exited:
    // then there is nothing left, and the last run must say so rather than migrate again.
    const finishedBeforeFinal = (await storedVersions(admin, crd)).join() === hubStorage;
    const sinceFinal = auditEvents().length;
    const final = await runCli(args);
    account(sinceFinal);
    expect(final.code, `seed ${seed}: ${final.stderr}`).toBe(0);
    expect((JSON.parse(final.stdout) as MigrationReport).crds[0], `seed ${seed}`).toMatchObject({
      outcome: finishedBeforeFinal ? 'clean' : 'finished',
      failed: [],
    });
    expect(kills, `seed ${seed}`).toBe(10);
    await expectAllAtHub(crd, manyObjects);
    expect(written.size, `seed ${seed}`).toBe(manyObjects);
    expect(redoneByResumes, `seed ${seed}`).toBeLessThanOrEqual(kills * batchSize);
    // Eleven plugin starts and a 240-object migration: about 50 s on an idle machine, more beside other files.
  }, 240_000);
});
