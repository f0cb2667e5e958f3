import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { BackupFailed, backupPath } from '../../../src/lib/migrate/backup.ts';
import { type MigrateFlags, migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { MissingPermissions } from '../../../src/lib/migrate/permissions.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { adminClient, auditEvents, readonlyClient, testPlane } from '../../fixtures/cluster.ts';
import {
  alphaStorage,
  crdStoredAtAlpha,
  hubStorage,
  type RenamingWebhook,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
  type TestCrd,
} from './support.ts';

let webhook: RenamingWebhook;
let admin: KubeClient;
let dir: string;

beforeAll(async () => {
  admin = await adminClient();
  webhook = await startRenamingWebhook(testPlane());
  dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-backup-'));
});
afterAll(async () => {
  await webhook.close();
  rmSync(dir, { recursive: true, force: true });
});

function flags(crd: TestCrd, namespace: string, extra: Partial<MigrateFlags> = {}): MigrateFlags {
  return {
    to: 'v',
    kind: [crd.name],
    strategy: 'auto',
    'batch-size': 3,
    concurrency: 2,
    'dry-run': false,
    restart: false,
    'state-namespace': namespace,
    ...extra,
  };
}

const quietHooks = { log: () => {}, interrupted: () => false };

function updatesTo(crd: TestCrd): number {
  return auditEvents().filter((event) => event.objectRef?.apiGroup === crd.group && event.verb === 'update')
    .length;
}

/** The objects as the rewrite reads them: at the target storage version. */
async function listAll(crd: TestCrd, namespace: string): Promise<KubeObject[]> {
  const list = await admin.request<{ items: KubeObject[] }>({
    path: resourcePath({ ...crd.type, version: hubStorage }, namespace),
    subject: { verb: 'list', resource: crd.name },
  });
  return list.items;
}

describe('migrate --backup-dir on the real control plane', () => {
  it('saves every object as it was before its first write, and keeps a backup already there', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 5);
    const before = await listAll(crd, namespace);
    const backups = join(dir, 'run');
    const [kept] = before as [KubeObject];
    const keptFile = backupPath(backups, crd.name, namespace, kept.metadata.name);
    mkdirSync(dirname(keptFile), { recursive: true });
    writeFileSync(keptFile, 'from an earlier run\n');

    const { report, exit } = await runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { 'backup-dir': backups }), 'default'),
      quietHooks,
    );

    expect(exit).toBe('ok');
    expect(report.crds[0]).toMatchObject({ outcome: 'finished', migrated: 5 });
    expect(readFileSync(keptFile, 'utf8')).toBe('from an earlier run\n');
    for (const object of before.slice(1)) {
      const file = backupPath(backups, crd.name, namespace, object.metadata.name);
      // The very object read before the run: same resourceVersion, so taken before any write of it.
      expect(parse(readFileSync(file, 'utf8'))).toEqual(object);
    }
    const after = await listAll(crd, namespace);
    const rewritten = after.filter(
      (object, i) => object.metadata.resourceVersion !== before[i]?.metadata.resourceVersion,
    );
    expect(rewritten).toHaveLength(5);
  });

  it('stops before any write when the backup folder cannot be written', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 2);
    const notAFolder = join(dir, 'a-file');
    writeFileSync(notAFolder, '');
    const updates = updatesTo(crd);
    const run = runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { 'backup-dir': join(notAFolder, 'backups') }), 'default'),
      quietHooks,
    );
    await expect(run).rejects.toBeInstanceOf(BackupFailed);
    await expect(run).rejects.toThrow(/--backup-dir .*a-file\/backups: cannot write the backup/);
    expect(updatesTo(crd)).toBe(updates);
    expect(existsSync(join(notAFolder, 'backups'))).toBe(false);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
    const stored = await storedObjects(testPlane(), crd);
    expect(stored.filter((object) => object.apiVersion === `${crd.group}/${alphaStorage}`)).toHaveLength(2);
  });
});

describe('migrate --dry-run=server on the real control plane', () => {
  it('sends every rewrite with dryRun=All: accepted, nothing stored, no progress or backup saved', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 4);
    const updates = updatesTo(crd);
    const backups = join(dir, 'dry-run-backups');
    const { report, exit } = await runMigration(
      admin,
      migrateOptionsOf(flags(crd, namespace, { 'dry-run': 'server', 'backup-dir': backups }), 'default'),
      quietHooks,
    );

    expect(exit).toBe('ok');
    expect(report).toMatchObject({ dryRun: true, dryRunMode: 'server' });
    expect(report.crds[0]).toMatchObject({
      outcome: 'planned',
      migrated: report.crds[0]?.objectsToCheck,
      failed: [],
      storedVersionsAfter: [alphaStorage, hubStorage],
    });
    expect(report.crds[0]?.reason).toMatch(/accepted \d+ rewrites with dryRun=All and stored none/);
    const sent = auditEvents()
      .filter((event) => event.objectRef?.apiGroup === crd.group && event.verb === 'update')
      .slice(updates);
    expect(sent.length).toBe(report.crds[0]?.objectsToCheck);
    for (const event of sent) expect(event.requestURI).toContain('dryRun=All');
    const stored = await storedObjects(testPlane(), crd);
    expect(stored.filter((object) => object.apiVersion === `${crd.group}/${alphaStorage}`)).toHaveLength(4);
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
    expect(existsSync(backups)).toBe(false);
    const configMapWrites = auditEvents().filter(
      (event) => event.objectRef?.resource === 'configmaps' && event.objectRef.namespace === namespace,
    );
    expect(configMapWrites).toEqual([]);
  });

  it('asks only for what its writes need: a context that may not update is refused before any', async () => {
    const { crd, namespace } = await crdStoredAtAlpha(admin, webhook, 1);
    const readonly = await readonlyClient();
    const updates = updatesTo(crd);
    const run = runMigration(
      readonly,
      migrateOptionsOf(flags(crd, namespace, { 'dry-run': 'server' }), 'default'),
      quietHooks,
    );
    await expect(run).rejects.toBeInstanceOf(MissingPermissions);
    await expect(run).rejects.toThrow(/may not update flexibleservers\.m[0-9a-f]+\.azure\.com/);
    await expect(run).rejects.not.toThrow(/customresourcedefinitions|configmaps/);
    expect(updatesTo(crd)).toBe(updates);
  });
});
