import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { resourcePath } from '../../src/lib/kube/paths.ts';
import type { MigrationReport } from '../../src/lib/migrate/report.ts';
import { applyObject } from '../control-plane/apply.ts';
import type { Plane } from '../control-plane/plane.ts';
import { isAlive, waitUntil } from '../control-plane/processes.ts';
import type { ArmEmulator } from '../fixtures/arm-emulator/index.ts';
import type { LoopbackProxy } from '../fixtures/arm-emulator/proxy.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  goForOperator,
  operatorControllerBinary,
  type RunningOperator,
  startOperator,
} from '../fixtures/operator-controller.ts';
import { startSurroundings, stopSurroundings } from '../fixtures/operator-surroundings.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import { storedObjects } from '../lib/migrate/support.ts';

const neededBy = 'test/operator/migrate-under-operator.plane.test.ts';
const go = goForOperator(neededBy);
const crds = sharedData('real-aso-crds', neededBy);

// VirtualNetwork is one of the 68 kinds whose storage version moves from v2.18.0 to v2.20.0.
const group = 'network.azure.com';
const plural = 'virtualnetworks';
const crdName = `${plural}.${group}`;
const written = 'v1api20240301';
const oldStorage = 'v1api20240301storage';
const newStorage = 'v20250301storage';
const namespace = 'net-upgrade';
const count = 24;

interface Condition {
  type: string;
  status: string;
  reason?: string;
  observedGeneration?: number;
}
type NetworkObject = KubeObject & {
  metadata: { finalizers?: string[] };
  spec: { addressSpace?: { addressPrefixes?: string[] }; tags?: Record<string, string> };
  status?: { conditions?: Condition[] };
};

const names = Array.from({ length: count }, (_, index) => `vnet-${index}`);
const prefixOf = (name: string) => `10.${names.indexOf(name)}.0.0/16`;
/** The objects a user keeps changing during the migration; the others only the operator and migrate write. */
const tagged = names.filter((_, index) => index % 2 === 0);

/** Ready=True for the object's current generation: the operator has reconciled what is in its spec now. */
function reconciled(object: NetworkObject): boolean {
  const ready = object.status?.conditions?.find((condition) => condition.type === 'Ready');
  return ready?.status === 'True' && ready.observedGeneration === object.metadata.generation;
}

/**
 * The upgrade today's users make, with ASO's own controller in the loop: VirtualNetworks written through
 * the operator's webhooks under v2.18.0's CRD (stored at its storage version), the operator restarted on
 * v2.20.0's CRDs, then `migrate` moving them to v2.20.0's storage version while the operator keeps writing
 * their status and a user keeps changing their tags. The controller is v2.20.0's throughout (the only one
 * built here): it serves v2.18.0's versions in its webhooks, as the release before did.
 */
describe.skipIf(!go || !crds.present)('migrate while the operator reconciles', () => {
  const stateDir = resolve(
    new URL('../..', import.meta.url).pathname,
    `.local/operator-migrate-${process.pid}`,
  );
  let plane: Plane;
  let admin: KubeClient;
  let arm: ArmEmulator;
  let proxy: LoopbackProxy;
  let operator: RunningOperator | undefined;
  const crdFile = (release: string, name: string) => join(crds.path, release, name);
  // One subscription across the restart, as a real upgrade keeps its settings: a fresh one would make the
  // operator refuse the resource group it already created (SubscriptionMismatch) and hold its children.
  const subscriptionId = randomUUID();
  const start = (networkRelease: string) =>
    startOperator({
      plane,
      admin,
      arm,
      proxy,
      subscriptionId,
      crdFiles: [
        crdFile('v2.20.0', 'resources.azure.com_resourcegroups.yaml'),
        crdFile(networkRelease, `${group}_${plural}.yaml`),
      ],
    });
  const path = (version: string, name?: string) => resourcePath({ group, version, plural }, namespace, name);
  const read = (name: string, version = written) =>
    admin.request<NetworkObject>({
      path: path(version, name),
      subject: { verb: 'get', resource: plural, namespace },
    });
  const readAll = () => Promise.all(names.map((name) => read(name)));
  const etcd = () =>
    storedObjects(plane, { group, name: crdName, type: { group, version: '', plural } } as never);
  const waitReconciled = async (what: string) => {
    try {
      await waitUntil(
        what,
        async () => (await readAll()).every(reconciled),
        240_000,
        () => operator !== undefined && isAlive(operator.pid),
      );
    } catch (error) {
      // Say where each object stands, so a failure shows which ones the operator left behind and why.
      const states = (await readAll()).map((object) => {
        const ready = object.status?.conditions?.find((condition) => condition.type === 'Ready');
        return `${object.metadata.name} generation ${object.metadata.generation}: ${JSON.stringify(ready)}`;
      });
      const log = operator ? readFileSync(operator.logFile, 'utf8').split('\n') : [];
      const owners = log.filter((line) => /owner|rg-net/i.test(line)).slice(-15);
      throw new Error(
        `${(error as Error).message}\n${states.join('\n')}\noperator log:\n${owners.join('\n')}`,
      );
    }
  };
  const setTag = async (name: string, value: string) => {
    await admin.request({
      method: 'PATCH',
      path: path(written, name),
      contentType: 'application/merge-patch+json',
      body: { spec: { tags: { round: value } } },
      subject: { verb: 'patch', resource: plural, namespace },
    });
  };
  const putsOf = (name: string) =>
    arm
      .requests()
      .filter((r) => r.method === 'PUT' && new RegExp(`/virtualNetworks/${name}\\?`, 'i').test(r.path))
      .length;

  beforeAll(async () => {
    await operatorControllerBinary();
    ({ arm, proxy, plane, admin } = await startSurroundings(stateDir, { longRunningPolls: 1 }));
    operator = await start('v2.18.0');
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await applyObject(
      admin,
      {
        apiVersion: 'resources.azure.com/v1api20200601',
        kind: 'ResourceGroup',
        metadata: { name: 'rg-net', namespace },
        spec: { location: 'westus' },
      },
      { group: 'resources.azure.com', version: 'v1api20200601', plural: 'resourcegroups', namespaced: true },
    );
    await Promise.all(
      names.map((name) =>
        admin.request({
          method: 'POST',
          path: path(written),
          body: {
            apiVersion: `${group}/${written}`,
            kind: 'VirtualNetwork',
            metadata: { name, namespace },
            spec: {
              owner: { name: 'rg-net' },
              location: 'westus',
              addressSpace: { addressPrefixes: [prefixOf(name)] },
            },
          },
          subject: { verb: 'create', resource: plural, namespace },
        }),
      ),
    );
    // Stopped before its cache-sync timeout would end it (see the first test).
    await operator.stop();
    operator = undefined;
  }, 3_600_000);

  afterAll(async () => {
    await stopSurroundings(stateDir, { operator, proxy, arm });
  }, 120_000);

  it("stores what is written through the operator's webhooks under v2.18.0's CRD at v2.18.0's storage version", async () => {
    const stored = await etcd();
    expect(stored.map((object) => object.apiVersion)).toEqual(names.map(() => `${group}/${oldStorage}`));
    // The operator's mutating webhook defaulted azureName on the way in (read at the storage version: the
    // operator, whose webhook converts, is stopped).
    for (const name of names)
      expect((await read(name, oldStorage)).spec).toMatchObject({
        azureName: name,
        owner: { name: 'rg-net' },
      });
    // v2.20.0's controller watches VirtualNetworks at its own storage version, which v2.18.0's CRD does not
    // serve: it never reconciles them under that CRD (its cache for the kind never syncs, and after two
    // minutes the process exits), so the upgrade below is where reconciling starts.
    for (const name of names) expect(putsOf(name)).toBe(0);
  }, 300_000);

  it("migrates every object to v2.20.0's storage version while the operator and a user keep writing", async () => {
    // The upgrade: the operator starts again with v2.20.0's CRDs, which make v20250301storage the storage version.
    // Every object is still at v2.18.0's storage version; migrate runs at once, while the operator starts
    // reconciling them all (its own status writes move each object it writes, too).
    operator = await start('v2.20.0');
    const crdBefore = await admin.request<{ status?: { storedVersions?: string[] } }>({
      path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`,
      subject: { verb: 'get', resource: 'customresourcedefinitions' },
    });
    expect(crdBefore.status?.storedVersions).toEqual([oldStorage, newStorage]);

    // A user changes every object's tags while migrate runs: each change is a new generation the operator
    // PUTs to ARM and writes status for, so migrate meets objects that change under it.
    let round = 0;
    let writing = true;
    const user = (async () => {
      while (writing) {
        round += 1;
        await Promise.all(tagged.map((name) => setTag(name, String(round))));
        await new Promise((done) => setTimeout(done, 300));
      }
    })();
    const run = await runCli([
      'migrate',
      '--to',
      'v',
      '--kind',
      crdName,
      '--batch-size',
      '3',
      '-o',
      'json',
      '--state-file',
      join(mkdtempSync(join(tmpdir(), 'operator-migrate-')), 'state.json'),
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      'admin',
    ]);
    writing = false;
    await user;
    expect(run.stderr).not.toMatch(/error|failed to|[1-9]\d* failed/i);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as MigrationReport;
    expect(report.crds).toEqual([
      expect.objectContaining({
        name: crdName,
        outcome: 'finished',
        storedVersionsAfter: [newStorage],
        failed: [],
        deleted: 0,
      }),
    ]);
    const crd = report.crds[0]!;
    expect(crd.migrated + crd.alreadyCurrent).toBe(count);

    // Nothing lost: every object at the new storage version in etcd, with its spec and the user's last tags.
    const stored = await etcd();
    expect(stored.map((object) => object.apiVersion)).toEqual(names.map(() => `${group}/${newStorage}`));
    await waitReconciled('the VirtualNetworks reconciled, the last tags included');
    for (const object of await readAll()) {
      expect(object.spec.addressSpace?.addressPrefixes).toEqual([prefixOf(object.metadata.name)]);
      expect(object.spec.tags).toEqual(
        tagged.includes(object.metadata.name) ? { round: String(round) } : undefined,
      );
      expect(object.metadata.finalizers).toContain('serviceoperator.azure.com/finalizer');
    }
  }, 600_000);

  it('leaves the operator reconciling every object afterwards', async () => {
    const before = new Map(names.map((name) => [name, putsOf(name)]));
    await Promise.all(names.map((name) => setTag(name, 'after-migrate')));
    await waitReconciled('the VirtualNetworks reconciled after the migration');
    for (const name of names) expect(putsOf(name)).toBeGreaterThan(before.get(name)!);
    for (const object of await readAll()) expect(object.spec.tags).toEqual({ round: 'after-migrate' });
    expect(operator?.foreignConnections()).toEqual([]);
  }, 300_000);
});
