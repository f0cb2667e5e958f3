import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/lib/conversion/convert.ts';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { Conflict } from '../../../src/lib/kube/errors.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { stateConfigMapName } from '../../../src/lib/migrate/checkpoint-configmap.ts';
import { type MigrateFlags, migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { MissingPermissions } from '../../../src/lib/migrate/permissions.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { adminClient, auditEvents, readonlyClient, testPlane } from '../../fixtures/cluster.ts';
import {
  alphaStorage,
  crdStoredAtAlpha,
  createObject,
  hubStorage,
  type RenamingWebhook,
  realGroup,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
  type TestCrd,
} from './support.ts';

let webhook: RenamingWebhook;
let admin: KubeClient;

beforeAll(async () => {
  admin = await adminClient();
  webhook = await startRenamingWebhook(testPlane());
});
afterAll(() => webhook.close());

function flags(crd: TestCrd, namespace: string, extra: Partial<MigrateFlags> = {}): MigrateFlags {
  return {
    to: 'v',
    kind: [crd.name],
    strategy: 'auto',
    'batch-size': 4,
    concurrency: 3,
    'dry-run': false,
    restart: false,
    'state-namespace': namespace,
    ...extra,
  };
}

const quietHooks = { log: () => {}, interrupted: () => false };

function writesTo(crd: TestCrd): number {
  return auditEvents().filter((event) => event.objectRef?.apiGroup === crd.group && event.verb !== 'create')
    .length;
}

describe('kubectl aso migrate on the real control plane', () => {
  it('rewrites objects stored at an alpha storage version at the hub, then cleans storedVersions', async () => {
    const { crd, namespace, originals } = await crdStoredAtAlpha(admin, webhook, 10);
    const before = await storedObjects(testPlane(), crd);
    expect(before.filter((object) => object.apiVersion === `${crd.group}/${alphaStorage}`)).toHaveLength(10);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);

    const log: string[] = [];
    const { report, exit } = await runMigration(admin, migrateOptionsOf(flags(crd, namespace), 'default'), {
      log: (line) => log.push(line),
      interrupted: () => false,
    });

    expect(exit).toBe('ok');
    const [result] = report.crds;
    expect(result).toMatchObject({
      name: crd.name,
      outcome: 'finished',
      strategy: 'server',
      storageVersion: hubStorage,
      storedVersionsBefore: [alphaStorage, hubStorage],
      storedVersionsAfter: [hubStorage],
      objectsToCheck: 11,
      migrated: 10,
      alreadyCurrent: 1,
      deleted: 0,
      failed: [],
    });
    expect(log.filter((line) => line.includes(': batch '))).toHaveLength(3);
    const after = await storedObjects(testPlane(), crd);
    expect(after).toHaveLength(11);
    expect(after.map((object) => object.apiVersion)).toEqual(after.map(() => `${crd.group}/${hubStorage}`));
    expect(await storedVersions(admin, crd)).toEqual([hubStorage]);
    // Each object reads back at the hub exactly as the generated conversion turns its original into.
    for (const original of originals) {
      const read = await admin.request<KubeObject>({
        path: resourcePath({ ...crd.type, version: 'v20250801' }, namespace, original.metadata.name),
        subject: { verb: 'get', resource: crd.name },
      });
      const renamed = JSON.parse(JSON.stringify(original).replaceAll(`${crd.group}/`, `${realGroup}/`));
      const expected = convert(renamed, 'v20250801');
      expect(read.spec).toEqual(expected.spec);
    }
    // Nothing is left behind: the progress ConfigMap is removed once the CRD is finished.
    await expect(
      admin.request({
        path: resourcePath(
          { group: '', version: 'v1', plural: 'configmaps' },
          namespace,
          stateConfigMapName(crd.name),
        ),
        subject: { verb: 'get', resource: 'configmaps' },
      }),
    ).rejects.toThrow(/not found/);

    // A second run finds the CRD clean and writes nothing.
    const writes = writesTo(crd);
    const again = await runMigration(admin, migrateOptionsOf(flags(crd, namespace), 'default'), quietHooks);
    expect(again.report.crds[0]?.outcome).toBe('clean');
    expect(writesTo(crd)).toBe(writes);
  });

  it('tells a progress display each batch, with done counts reaching the planned total', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 9);
    const events: string[] = [];
    const log: string[] = [];
    const { report } = await runMigration(admin, migrateOptionsOf(flags(crd, namespace), 'default'), {
      log: (line) => log.push(line),
      interrupted: () => false,
      progress: {
        start: (name, total) => events.push(`start ${name === crd.name} ${total}`),
        advance: (_name, done, size) => events.push(`advance ${done} ${size}`),
        end: (name) => events.push(`end ${name === crd.name}`),
      },
    });
    expect(report.crds[0]?.outcome).toBe('finished');
    // 9 objects and the probe, in batches of 4; batch lines go to the display instead of the log.
    expect(events).toEqual(['start true 10', 'advance 4 4', 'advance 8 4', 'advance 10 2', 'end true']);
    expect(log.filter((line) => line.includes(': batch '))).toEqual([]);
  });

  it('writes nothing when --to names a version that is not the storage version', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 3);
    const writes = writesTo(crd);
    const before = await storedObjects(testPlane(), crd);
    const { report, exit } = await runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { to: 'v1beta' }), 'default'),
      quietHooks,
    );
    expect(exit).toBe('migrationIncomplete');
    expect(report.crds[0]).toMatchObject({
      outcome: 'skipped',
      target: 'v1beta20210601storage',
      migrated: 0,
    });
    expect(report.crds[0]?.reason).toMatch(/storage version is v20250801storage/);
    expect(writesTo(crd)).toBe(writes);
    expect(await storedObjects(testPlane(), crd)).toEqual(before);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
  });

  it('prints the plan with --dry-run and writes nothing', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 5);
    const writes = writesTo(crd);
    const { report, exit } = await runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { 'dry-run': true }), 'default'),
      quietHooks,
    );
    expect(exit).toBe('ok');
    expect(report).toMatchObject({ target: 'v', dryRun: true });
    expect(report.crds[0]).toMatchObject({
      outcome: 'planned',
      strategy: 'server',
      target: hubStorage,
      storageVersion: hubStorage,
      storedVersionsBefore: [alphaStorage, hubStorage],
      objectsToCheck: 6,
    });
    expect(report.crds[0]?.servedVersions).toContain('v1alpha1api20210601');
    expect(writesTo(crd)).toBe(writes);
  });

  it('refuses the readonly context with a forbidden error before any write', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 2);
    const writes = writesTo(crd);
    const readonly = await readonlyClient();
    const run = runMigration(readonly, migrateOptionsOf(flags(crd, namespace), 'default'), quietHooks);
    await expect(run).rejects.toBeInstanceOf(MissingPermissions);
    await expect(run).rejects.toThrow(
      /may not update flexibleservers\.m[0-9a-f]+\.azure\.com in every namespace/,
    );
    expect(writesTo(crd)).toBe(writes);
    const readonlyWrites = auditEvents().filter(
      (event) =>
        event.user.username === 'readonly' && event.objectRef?.resource !== 'selfsubjectaccessreviews',
    );
    expect(readonlyWrites).toEqual([]);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
  });

  it('reports a CRD whose webhook refuses the old version, of a kind the catalog lacks, as unavailable: client-side is refused', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 2);
    const atAlpha = async () =>
      (await storedObjects(testPlane(), crd)).filter((o) => o.apiVersion === `${crd.group}/${alphaStorage}`);
    const before = await atAlpha();
    webhook.refuse.add(alphaStorage);
    try {
      // The plan reads the first object by name (from etcd, through the webhook): a dry run already says so.
      const plan = await runMigration(
        admin,
        migrateOptionsOf(flags(crd, namespace, { 'dry-run': true }), 'default'),
        quietHooks,
      );
      expect(plan.report.crds[0]).toMatchObject({ outcome: 'unavailable', strategy: 'client' });
      expect(plan.report.crds[0]?.reason).toMatch(
        /no longer converts .*client-side conversion is refused: the catalog has no FlexibleServer\.m[0-9a-f]+\.azure\.com/,
      );
      const server = await runMigration(
        admin,
        migrateOptionsOf(flags(crd, namespace, { strategy: 'server' }), 'default'),
        quietHooks,
      );
      expect(server.exit).toBe('migrationIncomplete');
      expect(server.report.crds[0]).toMatchObject({ outcome: 'skipped', strategy: 'server', migrated: 0 });
      expect(server.report.crds[0]?.reason).toMatch(/server-side rewrite impossible: .*no longer converts/);
    } finally {
      webhook.refuse.delete(alphaStorage);
    }
    expect((await atAlpha()).map((o) => o.value)).toEqual(before.map((o) => o.value));
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
  });

  it('judges the conversion failures of its writes too, and a rerun retries just the objects that failed', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 2);
    // First in storage order and stored at the hub: the plan's one-object probe passes.
    await createObject(admin, crd, {
      apiVersion: `${crd.group}/v20250801`,
      kind: 'FlexibleServer',
      metadata: { name: 'aaa-current', namespace },
      spec: { owner: { name: 'rg' }, location: 'westeurope', version: '15' },
    });
    webhook.refuse.add(alphaStorage);
    try {
      const auto = await runMigration(admin, migrateOptionsOf(flags(crd, namespace), 'default'), quietHooks);
      expect(auto.exit).toBe('migrationIncomplete');
      expect(auto.report.crds[0]).toMatchObject({ outcome: 'unavailable', strategy: 'client', migrated: 0 });
      expect(auto.report.crds[0]?.reason).toMatch(
        /cannot convert some objects, and client-side conversion is refused: the catalog has no FlexibleServer/,
      );
      const server = await runMigration(
        admin,
        migrateOptionsOf(flags(crd, namespace, { strategy: 'server', restart: true }), 'default'),
        quietHooks,
      );
      expect(server.report.crds[0]).toMatchObject({ outcome: 'incomplete', strategy: 'server', migrated: 0 });
      expect(server.report.crds[0]?.failed.map((failed) => failed.name).sort()).toEqual([
        'server-000',
        'server-001',
      ]);
      expect(server.report.crds[0]?.failed[0]?.reason).toMatch(/no longer converts/);
    } finally {
      webhook.refuse.delete(alphaStorage);
    }
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
    const log: string[] = [];
    const retried = await runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { strategy: 'server' }), 'default'),
      {
        log: (line) => log.push(line),
        interrupted: () => false,
      },
    );
    expect(retried.report.crds[0]).toMatchObject({ outcome: 'finished', migrated: 2, failed: [] });
    expect(log.some((line) => line.includes('retried 2 objects that had failed; 0 still fail'))).toBe(true);
    expect(await storedVersions(admin, crd)).toEqual([hubStorage]);
  });

  it('loses no update made by a concurrent writer while the migration runs', async () => {
    const { crd, namespace, originals } = await crdStoredAtAlpha(admin, webhook, 24);
    const alphaType = { ...crd.type, version: 'v1alpha1api20210601' };
    let writerDone = false;
    const writer = (async () => {
      for (const [index, original] of originals.entries()) {
        const path = resourcePath(alphaType, namespace, original.metadata.name);
        for (;;) {
          const current = await admin.request<KubeObject>({
            path,
            subject: { verb: 'get', resource: crd.name },
          });
          const labels = { ...(current.metadata.labels ?? {}), touched: String(index) };
          try {
            await admin.request({
              method: 'PUT',
              path,
              body: { ...current, metadata: { ...current.metadata, labels } },
              subject: { verb: 'update', resource: crd.name },
            });
            break;
          } catch (error) {
            if (!(error instanceof Conflict)) throw error;
          }
        }
      }
      writerDone = true;
    })();
    const { report } = await runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { 'batch-size': 2, concurrency: 4 }), 'default'),
      quietHooks,
    );
    await writer;
    expect(writerDone).toBe(true);
    expect(report.crds[0]).toMatchObject({ outcome: 'finished', failed: [], deleted: 0 });
    const stored = await storedObjects(testPlane(), crd);
    expect(stored.filter((object) => object.apiVersion !== `${crd.group}/${hubStorage}`)).toEqual([]);
    for (const [index, original] of originals.entries()) {
      const object = stored.find((entry) => entry.key.endsWith(`/${namespace}/${original.metadata.name}`));
      expect(object?.value.metadata.labels?.touched).toBe(String(index));
    }
    expect(await storedVersions(admin, crd)).toEqual([hubStorage]);
  });
});
