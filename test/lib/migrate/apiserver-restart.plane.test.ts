import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../../control-plane/plane.ts';
import { isAlive, spawnDetached } from '../../control-plane/processes.ts';
import { hub, type PlainCrd, plainObjectsAtAlpha, storedPlain } from './plain-crd.ts';

// A plane of its own: its API server is killed and started again in the middle of a migration.
const stateDir = resolve(
  new URL('../../..', import.meta.url).pathname,
  `.local/test-migrate-restart-${process.pid}`,
);
const crd: PlainCrd = { group: 'restart.azure.com', plural: 'widgets', name: 'widgets.restart.azure.com' };
let plane: Plane;
let admin: KubeClient;

beforeAll(async () => {
  plane = await startPlane(stateDir, { withGenerated: false });
  admin = await clientFor(plane);
}, 180_000);
afterAll(() => stopPlane(stateDir));

/**
 * Kills the plane's API server (SIGKILL, as a crash would) and starts it again with the same command line
 * after `downMs`, recording the new process so that stopping the plane stops it.
 */
async function restartApiServer(downMs: number): Promise<void> {
  const argv = readFileSync(`/proc/${plane.apiserverPid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  process.kill(plane.apiserverPid, 'SIGKILL');
  while (isAlive(plane.apiserverPid)) await new Promise((done) => setTimeout(done, 20));
  await new Promise((done) => setTimeout(done, downMs));
  const [command, ...args] = argv as [string, ...string[]];
  plane.apiserverPid = spawnDetached(command, args, join(stateDir, 'kube-apiserver.log'));
  writeFileSync(join(stateDir, 'plane.json'), `${JSON.stringify(plane, null, 2)}\n`);
}

describe('a migration during which the API server restarts, on a real control plane', () => {
  it('rides out the restart with backoff and finishes with every object at the hub', async () => {
    const namespace = 'restart';
    const total = await plainObjectsAtAlpha(admin, plane, crd, namespace, 60);
    const log: string[] = [];
    let restart: Promise<void> | undefined;
    const options = migrateOptionsOf(
      {
        to: 'v1api',
        kind: [crd.name],
        strategy: 'server',
        'batch-size': 5,
        concurrency: 4,
        'dry-run': false,
        restart: false,
        'state-namespace': namespace,
      },
      'default',
    );
    const { report, exit } = await runMigration(admin, options, {
      log: (line) => {
        log.push(line);
        if (line.includes(': batch 2:')) restart = restartApiServer(1000);
      },
      interrupted: () => false,
    });
    await restart;
    expect(restart).toBeDefined();
    const batches = log.filter((line) => line.includes(': batch '));
    expect(batches.length).toBeGreaterThan(2);
    expect(exit).toBe('ok');
    const [result] = report.crds;
    expect(result).toMatchObject({ outcome: 'finished', storedVersionsAfter: [hub], failed: [], deleted: 0 });
    // A write whose answer was lost to the restart may be counted as already current when it is redone.
    expect((result?.migrated ?? 0) + (result?.alreadyCurrent ?? 0)).toBe(total);
    expect(
      (await storedPlain(plane, crd)).filter((object) => object.apiVersion !== `${crd.group}/${hub}`),
    ).toEqual([]);
  });
});
