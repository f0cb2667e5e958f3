import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/lib/conversion/convert.ts';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { switchAnnotation } from '../../../src/lib/migrate/conversion-switch.ts';
import { crdType, readCrd } from '../../../src/lib/migrate/crds.ts';
import { type MigrateFlags, migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import type { MigrationReport } from '../../../src/lib/migrate/report.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../../control-plane/plane.ts';
import { runCli } from '../../fixtures/cli.ts';
import { create, type OldStored, pointAt, storedAtOld, storedByName } from './client-support.ts';
import {
  alphaServer,
  alphaStorage,
  createTestCrd,
  hubStorage,
  moveStorage,
  type RenamingWebhook,
  startRenamingWebhook,
  storedVersions,
} from './support.ts';

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
function expectedAt(original: KubeObject, version: string): KubeObject {
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
  });

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
  });
});
