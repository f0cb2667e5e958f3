import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/lib/conversion/convert.ts';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { propertyBags } from '../../../src/lib/migrate/client-convert.ts';
import {
  currentConversion,
  switchAnnotation,
  switchConversionOff,
  switchLabel,
} from '../../../src/lib/migrate/conversion-switch.ts';
import { crdType, readCrd } from '../../../src/lib/migrate/crds.ts';
import { type MigrateFlags, migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import type { MigrationReport } from '../../../src/lib/migrate/report.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../../control-plane/plane.ts';
import { runCli } from '../../fixtures/cli.ts';
import { randomFrom } from '../../fixtures/seeded-random.ts';
import { create, type OldStored, pointAt, storedAtOld, storedByName } from './client-support.ts';
import {
  alphaServer,
  alphaStorage,
  createTestCrd,
  hubStorage,
  moveStorage,
  type RenamingWebhook,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
} from './support.ts';

const bin = new URL('../../../bin/kubectl-aso', import.meta.url).pathname;

// A plane of its own: client-side conversion needs the catalog's real groups, whose CRDs these tests
// switch between storage versions and conversions.
const stateDir = resolve(
  new URL('../../..', import.meta.url).pathname,
  `.local/test-migrate-client-${process.pid}`,
);
let plane: Plane;
let admin: KubeClient;
const webhooks: RenamingWebhook[] = [];

beforeAll(async () => {
  plane = await startPlane(stateDir);
  admin = await clientFor(plane);
}, 240_000);
afterAll(async () => {
  for (const webhook of webhooks) await webhook.close();
  await stopPlane(stateDir);
});

async function webhook(): Promise<RenamingWebhook> {
  const started = await startRenamingWebhook(plane);
  webhooks.push(started);
  return started;
}

const postgres = 'dbforpostgresql.azure.com';

function flags(s: OldStored, extra: Partial<MigrateFlags> = {}): MigrateFlags {
  return {
    to: 'latest',
    kind: [s.name],
    strategy: 'auto',
    'batch-size': 4,
    concurrency: 3,
    'dry-run': false,
    restart: false,
    'state-namespace': s.namespace,
    ...extra,
  };
}

const quiet = { log: () => {}, interrupted: () => false };

/** Writes to a group recorded by this plane's audit log (creates aside: the test makes its objects). */
function writesTo(group: string): number {
  return readFileSync(plane.auditLog, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { verb: string; objectRef?: { apiGroup?: string } })
    .filter((event) => event.objectRef?.apiGroup === group && event.verb !== 'create').length;
}

/** The object as a read at `version` must give it: the generated conversion of what was written. */
function expectedAt(original: KubeObject, version: string): ReturnType<typeof convert> {
  return convert(original, version);
}

/** The CRD's conversion and per-version subresources are what they were before the run, and no record is left. */
async function expectRestored(s: OldStored): Promise<void> {
  const crd = (await readCrd(admin, s.name)) as Awaited<ReturnType<typeof readCrd>> & {
    spec: { conversion?: unknown; versions: Array<{ subresources?: unknown }> };
  };
  expect(crd.spec.conversion).toEqual(s.conversion);
  expect(crd.metadata.annotations?.[switchAnnotation]).toBeUndefined();
  for (const version of crd.spec.versions) expect(version.subresources).toEqual({ status: {} });
}

async function readAt(s: OldStored, version: string, name: string): Promise<KubeObject> {
  return admin.request<KubeObject>({
    path: resourcePath({ group: s.group, version, plural: s.plural }, s.namespace, name),
    subject: { verb: 'get', resource: s.plural },
  });
}

describe('client-side migrate on the real control plane', () => {
  it('rewrites objects whose conversion webhook is down, and restores the conversion afterwards', async () => {
    const hook = await webhook();
    const s = await storedAtOld(
      plane,
      admin,
      hook,
      {
        group: postgres,
        plural: 'flexibleservers',
        oldStorage: alphaStorage,
        hub: hubStorage,
        namespace: 'down',
      },
      (namespace, index) => alphaServer(postgres, namespace, `server-${index}`, index),
      6,
    );
    const before = await storedByName(plane, s.asTestCrd);
    for (const original of s.originals) {
      expect(before.get(original.metadata.name)?.apiVersion).toBe(`${postgres}/${alphaStorage}`);
    }
    await hook.close();
    // The premise: the API server can no longer convert. Under CI load it was once still seen converting
    // right after the close (the run then chose the server-side path), so wait until a read needing the
    // webhook fails.
    const first = s.originals[0]?.metadata.name ?? '';
    const deadline = Date.now() + 30_000;
    let converting = true;
    while (converting && Date.now() < deadline) {
      converting = await readAt(s, hubStorage, first).then(
        () => true,
        () => false,
      );
      if (converting) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(converting, 'the API server still converts through the closed webhook').toBe(false);
    const log: string[] = [];
    const { report, exit } = await runMigration(admin, migrateOptionsOf(flags(s), 'default'), {
      log: (line) => log.push(line),
      interrupted: () => false,
    });
    expect(exit).toBe('ok');
    const [result] = report.crds;
    expect(result).toMatchObject({
      outcome: 'finished',
      strategy: 'client',
      storedVersionsAfter: [hubStorage],
      deleted: 0,
      failed: [],
    });
    expect(result?.reason).toMatch(/^client-side: the API server cannot convert every object/);
    expect((result?.migrated ?? 0) + (result?.alreadyCurrent ?? 0)).toBe(s.originals.length + s.extra);
    expect(result?.migrated).toBeGreaterThanOrEqual(s.originals.length);
    expect(log.some((line) => line.includes('conversion switched to None'))).toBe(true);
    expect(log.some((line) => line.includes('conversion restored'))).toBe(true);

    const after = await storedByName(plane, s.asTestCrd);
    for (const original of s.originals) {
      const stored = after.get(original.metadata.name);
      expect(stored?.apiVersion).toBe(`${postgres}/${hubStorage}`);
      // Read at the storage version, which needs no conversion even with the webhook down.
      const read = await readAt(s, hubStorage, original.metadata.name);
      expect(read.spec).toEqual(expectedAt(original, hubStorage).spec);
    }
    expect(await storedVersions(admin, s.asTestCrd)).toEqual([hubStorage]);
    await expectRestored(s);
  }, 240_000);

  it('rewrites objects whose webhook refuses their old version; the dry run previews them and writes nothing', async () => {
    const hook = await webhook();
    const s = await storedAtOld(
      plane,
      admin,
      hook,
      {
        group: postgres,
        plural: 'flexibleserversdatabases',
        oldStorage: alphaStorage,
        hub: hubStorage,
        namespace: 'refuse',
      },
      (namespace, index) => ({
        apiVersion: `${postgres}/v1alpha1api20210601`,
        kind: 'FlexibleServersDatabase',
        metadata: { name: `db-${index}`, namespace },
        spec: { owner: { name: `server-${index}` }, charset: 'UTF8', collation: 'en_US.utf8' },
      }),
      5,
    );
    hook.refuse.add(alphaStorage);
    const writes = writesTo(postgres);
    const plan = await runMigration(admin, migrateOptionsOf(flags(s, { 'dry-run': true }), 'default'), quiet);
    expect(plan.exit).toBe('ok');
    const [planned] = plan.report.crds;
    expect(planned).toMatchObject({ outcome: 'planned', strategy: 'client' });
    expect(planned?.reason).toMatch(/this webhook no longer converts/);
    // Each original reads only at the version it is stored at: that is where the preview says it is.
    for (const original of s.originals) {
      const preview = planned?.preview?.find((object) => object.name === original.metadata.name);
      expect(preview).toMatchObject({ namespace: s.namespace, storedAt: [alphaStorage], propertyBag: [] });
    }
    expect(writesTo(postgres)).toBe(writes);

    const { report, exit } = await runMigration(admin, migrateOptionsOf(flags(s), 'default'), quiet);
    expect(exit).toBe('ok');
    expect(report.crds[0]).toMatchObject({ outcome: 'finished', strategy: 'client', failed: [] });
    for (const original of s.originals) {
      const read = await readAt(s, hubStorage, original.metadata.name);
      expect(read.spec).toEqual(expectedAt(original, hubStorage).spec);
    }
    expect(await storedVersions(admin, s.asTestCrd)).toEqual([hubStorage]);
    await expectRestored(s);
  }, 240_000);

  it('previews $propertyBag in the dry run (table and JSON), and stores what the server-side path stores', async () => {
    // Stored at 2024-08-01, whose spec takes the key status; the 2025-08-01 hub has no place for it.
    const older = 'v1api20240801storage';
    const hub = hubStorage;
    const make = (namespace: string, index: number): KubeObject => ({
      apiVersion: `${postgres}/v1api20240801`,
      kind: 'FlexibleServer',
      metadata: { name: `encrypted-${index}`, namespace },
      spec: {
        owner: { name: 'rg' },
        location: 'westeurope',
        dataEncryption: {
          type: 'SystemManaged',
          primaryEncryptionKeyStatus: index % 2 === 0 ? 'Valid' : 'Invalid',
        },
      },
    });
    const hook = await webhook();
    const s = await storedAtOld(
      plane,
      admin,
      hook,
      { group: postgres, plural: 'flexibleservers', oldStorage: older, hub, namespace: 'bag' },
      make,
      4,
    );
    await hook.close();
    const cli = (extra: string[]) =>
      runCli([
        'migrate',
        '--to',
        'latest',
        '--kind',
        s.name,
        '--state-namespace',
        s.namespace,
        '--kubeconfig',
        plane.kubeconfig,
        '--context',
        plane.contexts.admin,
        ...extra,
      ]);
    const writes = writesTo(postgres);
    const json = await cli(['--dry-run', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const planned = (JSON.parse(json.stdout) as MigrationReport).crds[0];
    expect(planned).toMatchObject({ outcome: 'planned', strategy: 'client' });
    const table = await cli(['--dry-run']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/client-side conversion, per object:/);
    for (const original of s.originals) {
      // The key status is gone from the hub: the conversion keeps it in the bag, as the operator's does.
      const bags = propertyBags(expectedAt(original, hub));
      expect(bags.length).toBe(1);
      expect(planned?.preview?.find((object) => object.name === original.metadata.name)).toEqual({
        namespace: s.namespace,
        name: original.metadata.name,
        storedAt: [older],
        propertyBag: bags,
      });
      expect(table.stdout).toContain(
        `${s.namespace}/${original.metadata.name} (stored at ${older}): spec.dataEncryption.$propertyBag ${JSON.stringify(bags[0]?.entries)}`,
      );
    }
    expect(writesTo(postgres)).toBe(writes);

    // Client-side (the webhook is down), then the same objects again server-side (through the webhook).
    const clientRun = await cli(['-o', 'json']);
    expect(clientRun.code, clientRun.stderr).toBe(0);
    expect((JSON.parse(clientRun.stdout) as MigrationReport).crds[0]).toMatchObject({
      outcome: 'finished',
      strategy: 'client',
    });
    await expectRestored(s);
    const clientSide = await storedByName(plane, s.asTestCrd);

    const again = await webhook();
    await pointAt(admin, s.name, again);
    for (const original of s.originals) {
      await admin.request({
        method: 'DELETE',
        path: resourcePath(
          { group: postgres, version: hub, plural: s.plural },
          s.namespace,
          original.metadata.name,
        ),
        subject: { verb: 'delete', resource: s.plural },
      });
    }
    await moveStorage(admin, s.name, older);
    await new Promise((done) => setTimeout(done, 3000));
    for (const original of s.originals) await create(admin, s.plural, original);
    for (const original of s.originals) {
      const stored = (await storedByName(plane, s.asTestCrd)).get(original.metadata.name);
      expect(stored?.apiVersion).toBe(`${postgres}/${older}`);
    }
    await moveStorage(admin, s.name, hub);
    await new Promise((done) => setTimeout(done, 3000));
    const serverRun = await cli(['-o', 'json', '--strategy', 'server']);
    expect(serverRun.code, serverRun.stderr).toBe(0);
    expect((JSON.parse(serverRun.stdout) as MigrationReport).crds[0]).toMatchObject({
      outcome: 'finished',
      strategy: 'server',
    });
    const serverSide = await storedByName(plane, s.asTestCrd);
    for (const original of s.originals) {
      const viaClient = clientSide.get(original.metadata.name)?.value;
      const viaServer = serverSide.get(original.metadata.name)?.value;
      expect(viaServer?.apiVersion).toBe(`${postgres}/${hub}`);
      expect(viaClient?.apiVersion).toBe(viaServer?.apiVersion);
      expect(viaClient?.spec).toEqual(viaServer?.spec);
      expect(viaClient?.status).toEqual(viaServer?.status);
    }
  }, 360_000);

  it("refuses client-side conversion where the cluster's schema is not the generated one, or the catalog lacks the kind", async () => {
    const hook = await webhook();
    const s = await storedAtOld(
      plane,
      admin,
      hook,
      {
        group: postgres,
        plural: 'flexibleserversfirewallrules',
        oldStorage: alphaStorage,
        hub: hubStorage,
        namespace: 'schema',
      },
      (namespace, index) => ({
        apiVersion: `${postgres}/v1alpha1api20210601`,
        kind: 'FlexibleServersFirewallRule',
        metadata: { name: `rule-${index}`, namespace },
        spec: {
          owner: { name: 'server' },
          startIpAddress: `10.0.0.${index}`,
          endIpAddress: `10.0.0.${index}`,
        },
      }),
      2,
    );
    // An operator release whose hub has one more property than the generated one.
    const crd = await admin.request<{
      spec: {
        versions: Array<{
          name: string;
          schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } };
        }>;
      };
    }>({
      path: resourcePath(crdType, undefined, s.name),
      subject: { verb: 'get', resource: 'customresourcedefinitions' },
    });
    const hubEntry = crd.spec.versions.find((version) => version.name === hubStorage);
    if (!hubEntry) throw new Error('no hub version');
    hubEntry.schema.openAPIV3Schema.properties.spec.properties.newInThisRelease = { type: 'string' };
    await admin.request({
      method: 'PUT',
      path: resourcePath(crdType, undefined, s.name),
      body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...crd },
      subject: { verb: 'update', resource: 'customresourcedefinitions' },
    });
    hook.refuse.add(alphaStorage);
    const writes = writesTo(postgres);
    for (const strategy of ['auto', 'client'] as const) {
      const { report, exit } = await runMigration(
        admin,
        migrateOptionsOf(flags(s, { strategy }), 'default'),
        quiet,
      );
      expect(exit).toBe('migrationIncomplete');
      expect(report.crds[0]).toMatchObject({ outcome: 'unavailable', strategy: 'client', migrated: 0 });
      expect(report.crds[0]?.reason).toMatch(
        /client-side conversion is refused: the cluster's schema of v20250801storage is not the generated one \(spec\.newInThisRelease: in the cluster's schema, not in the generated one\)/,
      );
    }
    expect(writesTo(postgres)).toBe(writes);

    // A kind the catalog lacks: the generated FlexibleServer CRD under a group of its own.
    const other = await createTestCrd(admin, await webhook(), alphaStorage);
    await admin.request({
      method: 'POST',
      path: resourcePath(other.type, 'schema'),
      body: alphaServer(other.group, 'schema', 'lonely', 1),
      subject: { verb: 'create', resource: other.name },
    });
    await moveStorage(admin, other.name, hubStorage);
    const { report } = await runMigration(
      admin,
      migrateOptionsOf(
        { ...flags(s, { strategy: 'client', 'dry-run': true }), kind: [other.name] },
        'default',
      ),
      quiet,
    );
    expect(report.crds[0]).toMatchObject({ outcome: 'unavailable', strategy: 'client' });
    expect(report.crds[0]?.reason).toMatch(
      /client-side conversion is refused: the catalog has no FlexibleServer\.m[0-9a-f]+\.azure\.com/,
    );
  }, 120_000);

  /**
   * ResourceGroups stored at the alpha storage version whose webhook is then gone, and the migrate command
   * that must move them client-side in small batches (so a signal can land between batches).
   */
  const resourceGroupsAtAlpha = async (namespaceName: string, location: string, count: number) => {
    const resources = 'resources.azure.com';
    const hub = 'v1api20200601storage';
    const hook = await webhook();
    const s = await storedAtOld(
      plane,
      admin,
      hook,
      {
        group: resources,
        plural: 'resourcegroups',
        oldStorage: 'v1alpha1api20200601storage',
        hub,
        namespace: namespaceName,
      },
      (namespace, index) => ({
        apiVersion: `${resources}/v1alpha1api20200601`,
        kind: 'ResourceGroup',
        metadata: { name: `rg-${String(index).padStart(2, '0')}`, namespace },
        spec: { location: location, tags: { index: String(index) } },
      }),
      count,
    );
    await hook.close();
    const args = [
      'migrate',
      '--to',
      'v1api',
      '--kind',
      s.name,
      '--batch-size',
      '3',
      '--concurrency',
      '1',
      '--state-namespace',
      s.namespace,
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      plane.contexts.admin,
      '-o',
      'json',
    ];
    return { s, hub, resources, args };
  };

  it('resumes a run SIGKILLed while the CRD is switched to None: the conversion is restored first, nothing is lost', async () => {
    const { s, hub, resources, args } = await resourceGroupsAtAlpha('kill', 'westeurope', 40);
    const before = await storedObjects(plane, s.asTestCrd);
    const seed = Number(process.env.MIGRATE_KILL_SEED ?? Date.now() % 100_000);
    const random = randomFrom(seed);
    const afterBatches = 1 + Math.floor(random() * 3);
    const killed = await signalAfterBatches(args, 'SIGKILL', afterBatches, Math.floor(random() * 40));
    expect(killed.signal, `seed ${seed}`).toBe('SIGKILL');
    const switched = (await readCrd(admin, s.name)) as Awaited<ReturnType<typeof readCrd>> & {
      spec: { conversion?: { strategy?: string } };
    };
    expect(switched.spec.conversion?.strategy, `seed ${seed}`).toBe('None');
    expect(switched.metadata.annotations?.[switchAnnotation]).toBeDefined();

    const resumed = await runCli(args);
    expect(resumed.code, `seed ${seed}: ${resumed.stderr}`).toBe(0);
    expect(resumed.stderr).toMatch(/restored the conversion an interrupted client-side run had switched off/);
    expect(resumed.stderr).toMatch(/resuming after batch \d+/);
    expect((JSON.parse(resumed.stdout) as MigrationReport).crds[0]).toMatchObject({
      outcome: 'finished',
      strategy: 'client',
      storedVersionsAfter: [hub],
      failed: [],
    });
    await expectRestored(s);
    const after = await storedObjects(plane, s.asTestCrd);
    expect(after.map((object) => object.key).sort()).toEqual(before.map((object) => object.key).sort());
    expect(after.filter((object) => object.apiVersion !== `${resources}/${hub}`)).toEqual([]);
    for (const original of s.originals) {
      const read = await readAt(s, hub, original.metadata.name);
      expect(read.spec, `seed ${seed}`).toEqual(expectedAt(original, hub).spec);
    }
    expect(await storedVersions(admin, s.asTestCrd)).toEqual([hub]);
  }, 180_000);

  /** A CRD's conversion and per-version subresources, to compare before and after a switch. */
  const conversionOf = async (name: string) => {
    const crd = (await readCrd(admin, name)) as unknown as {
      metadata: { annotations?: Record<string, string>; labels?: Record<string, string> };
      spec: { conversion?: unknown; versions: Array<{ name: string; subresources?: unknown }> };
    };
    return {
      conversion: crd.spec.conversion,
      subresources: crd.spec.versions.map((version) => [version.name, version.subresources]),
      annotation: crd.metadata.annotations?.[switchAnnotation],
      label: crd.metadata.labels?.[switchLabel],
    };
  };

  /** The kubeconfig arguments of a CLI run on this plane, with the state in `namespace`. */
  const clusterArgs = (namespace: string) => [
    '--state-namespace',
    namespace,
    '--kubeconfig',
    plane.kubeconfig,
    '--context',
    plane.contexts.admin,
  ];

  it('restores a CRD a SIGKILLed client-side run left switched from a run for another kind, before anything else', async () => {
    const { s, args } = await resourceGroupsAtAlpha('kill-other', 'uksouth', 24);
    const original = await conversionOf(s.name);
    expect(original.conversion).toEqual(s.conversion);
    const killed = await signalAfterBatches([...args, '--strategy', 'client'], 'SIGKILL', 1, 0);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect((await conversionOf(s.name)).conversion).toEqual({ strategy: 'None' });

    const other = await runCli([
      'migrate',
      '--to',
      'latest',
      '--kind',
      'StorageAccount',
      ...clusterArgs(s.namespace),
      '-o',
      'json',
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain(
      `${s.name}: restored the conversion an interrupted client-side run had switched off`,
    );
    // Restored before the other kind's plan: its report holds StorageAccount only.
    expect((JSON.parse(other.stdout) as MigrationReport).crds.map((crd) => crd.kind)).toEqual([
      'StorageAccount',
    ]);
    expect(await conversionOf(s.name)).toEqual({ ...original, annotation: undefined, label: undefined });
  }, 180_000);

  it('--restore restores every CRD a SIGKILLed client-side run left switched, and again finds nothing', async () => {
    const { s, args } = await resourceGroupsAtAlpha('kill-restore', 'francecentral', 24);
    const original = await conversionOf(s.name);
    const killed = await signalAfterBatches([...args, '--strategy', 'client'], 'SIGKILL', 1, 0);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect((await conversionOf(s.name)).conversion, killed.stderr).toEqual({ strategy: 'None' });

    const restore = ['migrate', '--restore', ...clusterArgs(s.namespace), '-o', 'json'];
    const first = await runCli(restore);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ restored: [{ name: s.name }] });
    expect(await conversionOf(s.name)).toEqual({ ...original, annotation: undefined, label: undefined });
    const again = await runCli(restore);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ restored: [] });
    expect(await conversionOf(s.name)).toEqual({ ...original, annotation: undefined, label: undefined });
  }, 180_000);

  it('leaves alone a CRD switched by a run still going (another kind migrating beside it), and --restore restores it', async () => {
    const { s } = await resourceGroupsAtAlpha('live-holder', 'westus2', 4);
    const original = await conversionOf(s.name);
    // Switched by this test process, which stays alive: the holder the other run must respect.
    const generation = (await readCrd(admin, s.name)).metadata.generation ?? 0;
    await switchConversionOff(admin, s.name, await currentConversion(admin, s.name), generation);
    expect((await conversionOf(s.name)).conversion).toEqual({ strategy: 'None' });

    const other = await runCli([
      'migrate',
      '--to',
      'latest',
      '--kind',
      'StorageAccount',
      ...clusterArgs(s.namespace),
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain(
      `${s.name}: left switched, switched by a migrate run that is still going (pid ${process.pid})`,
    );
    expect((await conversionOf(s.name)).conversion).toEqual({ strategy: 'None' });

    const restore = await runCli(['migrate', '--restore', ...clusterArgs(s.namespace), '-o', 'json']);
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toEqual({ restored: [{ name: s.name }] });
    expect(await conversionOf(s.name)).toEqual({ ...original, annotation: undefined, label: undefined });
  }, 180_000);

  it('puts the conversion back when interrupted (SIGINT) after the batch in flight, and the rerun finishes', async () => {
    const { s, hub, args } = await resourceGroupsAtAlpha('interrupt', 'northeurope', 30);
    const interrupted = await signalAfterBatches(args, 'SIGINT', 1, 0);
    expect(interrupted.code, interrupted.stderr).toBe(21);
    expect((JSON.parse(interrupted.stdout) as MigrationReport).crds[0]).toMatchObject({
      outcome: 'interrupted',
      strategy: 'client',
    });
    expect(interrupted.stderr).toMatch(/conversion restored/);
    await expectRestored(s);

    const resumed = await runCli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toMatch(/restored the conversion an interrupted client-side run/);
    expect((JSON.parse(resumed.stdout) as MigrationReport).crds[0]).toMatchObject({
      outcome: 'finished',
      failed: [],
    });
    await expectRestored(s);
    for (const original of s.originals) {
      const read = await readAt(s, hub, original.metadata.name);
      expect(read.spec).toEqual(expectedAt(original, hub).spec);
    }
  }, 180_000);
});

/**
 * Starts the plugin and sends `signal` `delayMs` after it logs its `batches`-th finished batch; resolves
 * at exit with how it ended and what it printed.
 */
function signalAfterBatches(
  args: string[],
  signal: NodeJS.Signals,
  batches: number,
  delayMs: number,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      seen += text.split(': batch ').length - 1;
      if (seen >= batches) timer ??= setTimeout(() => child.kill(signal), delayMs);
    });
    child.on('error', fail);
    child.on('close', (code, ended) => {
      clearTimeout(timer);
      done({ signal: ended, code, stdout, stderr });
    });
  });
}
