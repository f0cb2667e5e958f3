import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { resourcePath } from '../../src/lib/kube/paths.ts';
import type { CrdCheckpoint } from '../../src/lib/migrate/checkpoint.ts';
import { stateConfigMapName } from '../../src/lib/migrate/checkpoint-configmap.ts';
import type { MigrationReport } from '../../src/lib/migrate/report.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, auditEvents, testPlane } from '../fixtures/cluster.ts';
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
    'v1api',
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

/** Starts the plugin and sends `signal` as soon as it logs its first finished batch; resolves at exit. */
function runUntilFirstBatch(
  args: string[],
  signal: NodeJS.Signals,
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
      if (!sent && /: batch 1: /.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', reject);
    child.on('close', (code, killedBy) => resolve({ code, signal: killedBy, stdout, stderr }));
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

/** Updates of the CRD's objects (the probe that proved the hub in effect aside), from the audit log. */
function updatesOf(crd: TestCrd): number {
  return auditEvents().filter(
    (event) =>
      event.verb === 'update' &&
      event.objectRef?.apiGroup === crd.group &&
      event.objectRef.name !== 'storage-probe',
  ).length;
}

async function expectAllAtHub(crd: TestCrd): Promise<void> {
  const stored = await storedObjects(testPlane(), crd);
  expect(stored).toHaveLength(objects + 1);
  expect(stored.filter((object) => object.apiVersion !== `${crd.group}/${hubStorage}`)).toEqual([]);
  expect(await storedVersions(admin, crd)).toEqual([hubStorage]);
}

describe('kubectl aso migrate resuming on the real control plane', () => {
  it('resumes after SIGKILL mid-run: nothing lost, at most one batch redone', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, objects);
    const args = migrateArgs(crd, namespace);
    const killed = await runUntilFirstBatch(args, 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const saved = await checkpointIn(namespace, crd);
    expect(saved.listed).toBe(false);
    expect(saved.batches).toBeGreaterThanOrEqual(1);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
    const updatesBeforeResume = updatesOf(crd);

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
    const resumedUpdates = updatesOf(crd) - updatesBeforeResume;
    expect(resumedUpdates).toBeLessThanOrEqual(objects - saved.batches * batchSize + batchSize);
    expect(updatesOf(crd)).toBeGreaterThanOrEqual(objects);
    expect(updatesOf(crd)).toBeLessThanOrEqual(objects + batchSize);
  });

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

    const resumed = await runCli(args);
    expect(resumed.code).toBe(0);
    const result = (JSON.parse(resumed.stdout) as MigrationReport).crds[0];
    expect(result).toMatchObject({ outcome: 'finished', migrated: objects, alreadyCurrent: 1 });
    await expectAllAtHub(crd);
    expect(updatesOf(crd)).toBe(objects);
  });
});
