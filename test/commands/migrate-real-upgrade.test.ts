import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exitCodes } from '../../src/lib/exit-codes.ts';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { resourcePath } from '../../src/lib/kube/paths.ts';
import { crdType } from '../../src/lib/migrate/crds.ts';
import type { MigrationReport } from '../../src/lib/migrate/report.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../control-plane/plane.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  convertWithOperator,
  goToolchain,
  type OperatorResult,
  type OperatorWebhook,
  operatorConversionBinaries,
  operatorConversionBinary,
  startOperatorWebhook,
} from '../fixtures/operator-conversion.ts';
import { withConversionWebhook } from '../fixtures/operator-webhook-crd.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import { type StoredObject, storedObjects } from '../lib/migrate/support.ts';

const neededBy = 'test/commands/migrate-real-upgrade.test.ts';
const go = goToolchain(neededBy);
const crdsDir = sharedData('real-aso-crds', neededBy);
const samplesDir = sharedData('aso-samples/v2.20.0', neededBy);

/**
 * One kind in the upgrade: the CRD the cluster had before (a file under `real-aso-crds/`, with the storage
 * flag where the release that wrote the objects had it), the real v2.20.0 CRD applied as the upgrade, and
 * the operator's sample the objects are made from.
 *
 * None of the 68 CRDs whose storage version moves between v2.18.0 and v2.20.0 (network, apimanagement,
 * compute, dbformysql, app, eventgrid, web, alertsmanagement, synapse, datafactory) belongs to the API groups
 * the test-only Go module registers (authorization, dbforpostgresql, kusto, resources, sql, storage: the rest
 * are left out to keep its build short), so the operator's webhook could not convert their objects; adding
 * a group means a long rebuild. The kinds here make the same kinds of move in the registered groups:
 * - to a newer ARM date: PostgreSQL's FlexibleServersDatabase and FlexibleServersFirewallRule from the real
 *   CRDs ASO's repository published at commit 289c45c77eb1 (stored at `v1api20240801storage`) to v2.20.0's
 *   `v20250801storage`; FlexibleServer the same way, from v2.18.0's CRD with the storage flag put back on
 *   `v1api20240801storage` (that commit's CRDs lack it); StorageAccount from `v1api20230101storage` (v2.18.0's
 *   CRD, flag moved there) to `v20250601storage`;
 * - to the plain prefix at the same ARM date, as most of the 68 do (`v1api20240501storage` ->
 *   `v20240501storage`): StorageAccountsBlobService from `v1api20230101storage` to `v20230101storage` (the
 *   v2.20.0 CRD with its storage flag there).
 */
interface UpgradeCase {
  group: string;
  plural: string;
  kind: string;
  before: string;
  beforeStorage: string;
  afterStorage: string;
  sample: string;
  /** What the operator would have written into status after reconciling the object, besides `id` and Ready. */
  status: Record<string, unknown>;
}

const postgres = 'dbforpostgresql.azure.com';
const storage = 'storage.azure.com';
const pgSamples = 'dbforpostgresql/v1api20240801/v1api20240801_';
const storageSamples = 'storage/v1api20230101/v1api20230101_';

const newerDate: UpgradeCase[] = [
  {
    group: postgres,
    plural: 'flexibleservers',
    kind: 'FlexibleServer',
    before: 'v2.18.0',
    beforeStorage: 'v1api20240801storage',
    afterStorage: 'v20250801storage',
    sample: `${pgSamples}flexibleserver.yaml`,
    status: { fullyQualifiedDomainName: 'server.postgres.database.azure.com', state: 'Ready', version: '16' },
  },
  {
    group: postgres,
    plural: 'flexibleserversdatabases',
    kind: 'FlexibleServersDatabase',
    before: '.',
    beforeStorage: 'v1api20240801storage',
    afterStorage: 'v20250801storage',
    sample: `${pgSamples}flexibleserversdatabase.yaml`,
    status: { charset: 'utf8', collation: 'en_US.utf8' },
  },
  {
    group: postgres,
    plural: 'flexibleserversfirewallrules',
    kind: 'FlexibleServersFirewallRule',
    before: '.',
    beforeStorage: 'v1api20240801storage',
    afterStorage: 'v20250801storage',
    sample: `${pgSamples}flexibleserversfirewallrule.yaml`,
    status: { startIpAddress: '1.2.3.4', endIpAddress: '1.2.3.4' },
  },
  {
    group: storage,
    plural: 'storageaccounts',
    kind: 'StorageAccount',
    before: 'v2.18.0',
    beforeStorage: 'v1api20230101storage',
    afterStorage: 'v20250601storage',
    sample: `${storageSamples}storageaccount.yaml`,
    status: {
      provisioningState: 'Succeeded',
      primaryEndpoints: { blob: 'https://account.blob.core.windows.net/' },
    },
  },
];

const plainPrefix: UpgradeCase = {
  group: storage,
  plural: 'storageaccountsblobservices',
  kind: 'StorageAccountsBlobService',
  before: 'v2.18.0',
  beforeStorage: 'v1api20230101storage',
  afterStorage: 'v20230101storage',
  sample: `${storageSamples}storageaccountsblobservice.yaml`,
  status: { isVersioningEnabled: true, deleteRetentionPolicy: { enabled: true, days: 7 } },
};

const cases = [...newerDate, plainPrefix];
const objectsPerKind = 5;
const namespace = 'default';

const crdName = (c: UpgradeCase) => `${c.plural}.${c.group}`;

/** The CRD file of `release` (`.` for the repository's top-level CRDs) with the storage flag on `storageVersion`. */
function crdOf(c: UpgradeCase, release: string, storageVersion: string): KubeObject {
  const crd = parse(readFileSync(join(crdsDir.path, release, `${c.group}_${c.plural}.yaml`), 'utf8')) as {
    spec: { versions: Array<{ name: string; storage: boolean; served: boolean }> };
  };
  const entry = crd.spec.versions.find((version) => version.name === storageVersion);
  // The old storage version must still be known to the new CRDs, or the upgrade itself would be refused.
  if (!entry?.served) throw new Error(`${release} ${crdName(c)} does not serve ${storageVersion}`);
  for (const version of crd.spec.versions) version.storage = version.name === storageVersion;
  return crd as unknown as KubeObject;
}

function sampleObjects(c: UpgradeCase): KubeObject[] {
  const sample = parse(readFileSync(join(samplesDir.path, c.sample), 'utf8')) as KubeObject;
  return Array.from({ length: objectsPerKind }, (_, index) => ({
    ...sample,
    metadata: {
      ...sample.metadata,
      name: `${sample.metadata.name}-${index}`,
      namespace,
      labels: { ...sample.metadata.labels, 'kubectl-aso.test/index': String(index) },
    },
  }));
}

/** The status the operator writes once it has reconciled `object`: the Azure ID, Ready, the kind's own fields. */
function reconciledStatus(c: UpgradeCase, object: KubeObject): Record<string, unknown> {
  return {
    ...c.status,
    id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/${c.kind}/${object.metadata.name}`,
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'Succeeded',
        observedGeneration: object.metadata.generation,
        lastTransitionTime: '2025-06-01T10:00:00Z',
      },
    ],
  };
}

const apiVersionOf = (object: KubeObject) => object.apiVersion?.split('/')[1] ?? '';

function etcdView(c: UpgradeCase) {
  return { group: c.group, name: crdName(c), type: { group: c.group, version: '', plural: c.plural } };
}

/** What a reader of an object relies on besides spec and status: who it is, its generation, its labels. */
function identity(object: KubeObject) {
  const { uid, generation, labels, annotations, creationTimestamp } = object.metadata;
  return { uid, generation, labels, annotations, creationTimestamp };
}

function operatorObject(result: OperatorResult | undefined): KubeObject {
  if (!result || 'error' in result)
    throw new Error(`the operator's conversion failed: ${JSON.stringify(result)}`);
  return result.object as KubeObject;
}

describe.skipIf(!go.present || !crdsDir.present || !samplesDir.present)(
  "the real upgrade of today's users: ASO's own CRDs and conversion webhook, objects moved to v2.20.0's storage versions",
  () => {
    const stateDir = resolve(
      new URL('../..', import.meta.url).pathname,
      `.local/real-upgrade-plane-${process.pid}`,
    );
    let webhook: OperatorWebhook | undefined;
    let plane: Plane;
    let client: KubeClient;
    /** Each kind's objects as written (status included), read back at the version they were written at. */
    const originals = new Map<string, KubeObject[]>();
    /** Each kind's objects as etcd held them after the upgrade, before the migration. */
    const storedBefore = new Map<string, StoredObject[]>();
    /** Each kind's objects as the upgraded operator read them before the migration: at the new storage version. */
    const operatorViewBefore = new Map<string, KubeObject[]>();

    const install = async (crd: KubeObject) => {
      await applyObject(client, withConversionWebhook(crd, webhook!));
      // StorageAccount's CRD is 1.5 MB with 14 versions: on a loaded machine the API server takes well over
      // the usual 30 s to establish it.
      await waitForEstablished(client, crd.metadata.name, 180_000);
    };
    // An upgrade replaces the CRD in place (one PUT: a create that conflicts would have the API server
    // validate these large schemas twice).
    const upgrade = async (crd: KubeObject) => {
      const path = resourcePath(crdType, undefined, crd.metadata.name);
      const current = await client.request<KubeObject>({
        path,
        subject: { verb: 'get', resource: 'customresourcedefinitions' },
      });
      const replacement = withConversionWebhook(crd, webhook!);
      await client.request({
        method: 'PUT',
        path,
        body: {
          ...replacement,
          metadata: { ...replacement.metadata, resourceVersion: current.metadata.resourceVersion },
        },
        subject: { verb: 'update', resource: 'customresourcedefinitions' },
      });
    };
    const stored = async (c: UpgradeCase) => storedObjects(plane, etcdView(c) as never);
    const storedVersionsOf = async (c: UpgradeCase) => {
      const crd = await client.request<{ status?: { storedVersions?: string[] } }>({
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName(c)}`,
        subject: { verb: 'get', resource: 'customresourcedefinitions' },
      });
      return crd.status?.storedVersions ?? [];
    };
    const read = (c: UpgradeCase, version: string, name: string) =>
      client.request<KubeObject>({
        path: resourcePath({ group: c.group, version, plural: c.plural }, namespace, name),
        subject: { verb: 'get', resource: c.plural, namespace },
      });
    const migrate = (args: string[]) =>
      runCli([
        'migrate',
        ...args,
        '-o',
        'json',
        '--state-file',
        join(mkdtempSync(join(tmpdir(), 'real-upgrade-')), 'state.json'),
        '--kubeconfig',
        plane.kubeconfig,
        '--context',
        'admin',
      ]);
    const kindFlags = (list: UpgradeCase[]) => list.flatMap((c) => ['--kind', crdName(c)]);

    beforeAll(async () => {
      // The webhook serves every case's group from one process; the per-group binaries are for the
      // conversions the test compares with.
      await operatorConversionBinary(cases.map((c) => c.group));
      await operatorConversionBinaries(cases.map((c) => c.group));
      // A plane of its own: the suite's plane carries the generated CRDs of the same names. Started before
      // the webhook, whose certificates go inside the plane's folder (starting a plane clears that folder).
      plane = await startPlane(stateDir, { withGenerated: false });
      webhook = await startOperatorWebhook(
        cases.map((c) => c.group),
        join(stateDir, 'operator-webhook'),
      );
      client = await clientFor(plane);
      for (const c of cases) {
        // One CRD at a time, as the API server is CPU-bound on each; a kind's objects go in at once.
        await install(crdOf(c, c.before, c.beforeStorage));
        const written = await Promise.all(
          sampleObjects(c).map(async (object) => {
            const version = apiVersionOf(object);
            const created = await client.request<KubeObject>({
              method: 'POST',
              path: resourcePath({ group: c.group, version, plural: c.plural }, namespace),
              body: object,
              subject: { verb: 'create', resource: c.plural, namespace },
            });
            // Status as the operator writes it: through the status subresource, at the version it reconciles.
            return client.request<KubeObject>({
              method: 'PUT',
              path: `${resourcePath({ group: c.group, version, plural: c.plural }, namespace, created.metadata.name)}/status`,
              body: { ...created, status: reconciledStatus(c, created) },
              subject: { verb: 'update', resource: `${c.plural}/status`, namespace },
            });
          }),
        );
        originals.set(c.kind, written);
      }
      // The operator upgrade: v2.20.0's CRDs replace the old ones, with the storage flag at the new version.
      for (const c of cases) await upgrade(crdOf(c, 'v2.20.0', c.afterStorage));
      await Promise.all(
        cases.map(async (c) => {
          storedBefore.set(c.kind, await stored(c));
          operatorViewBefore.set(
            c.kind,
            await Promise.all(
              (originals.get(c.kind) ?? []).map((object) => read(c, c.afterStorage, object.metadata.name)),
            ),
          );
        }),
      );
    }, 1_800_000);

    afterAll(async () => {
      await webhook?.stop();
      await stopPlane(stateDir);
    });

    it('finds every object stored at the old storage version after the upgrade', async () => {
      for (const c of cases) {
        const before = storedBefore.get(c.kind) ?? [];
        expect(
          before.map((object) => object.apiVersion),
          c.kind,
        ).toEqual(before.map(() => `${c.group}/${c.beforeStorage}`));
        expect(before).toHaveLength(objectsPerKind);
        // The objects carry the status the operator wrote, so the migration has status to keep too.
        for (const object of before) expect(object.value.status, object.key).toMatchObject(c.status);
        expect(await storedVersionsOf(c), c.kind).toEqual([c.beforeStorage, c.afterStorage]);
      }
    });

    it('plans, migrates with --to v and with the exact plain-prefix version, and leaves every object as the operator converts it', async () => {
      const plan = await migrate(['--to', 'v', '--dry-run', ...kindFlags(newerDate)]);
      expect(plan.code, plan.stderr).toBe(0);
      const planned = JSON.parse(plan.stdout) as MigrationReport;
      for (const c of newerDate) {
        expect(
          planned.crds.find((crd) => crd.name === crdName(c)),
          c.kind,
        ).toMatchObject({
          outcome: 'planned',
          strategy: 'server',
          target: c.afterStorage,
          storageVersion: c.afterStorage,
          storedVersionsBefore: [c.beforeStorage, c.afterStorage],
          objectsToCheck: objectsPerKind,
        });
      }
      // A dry run writes nothing.
      for (const c of newerDate) expect(await stored(c), c.kind).toEqual(storedBefore.get(c.kind));

      // `--to v` names the newest plain-prefix storage version (v20250601storage), which the plain-prefix
      // move's storage version is not: the plan says so and writes nothing.
      const refused = await migrate(['--to', 'v', ...kindFlags([plainPrefix])]);
      expect(refused.code, refused.stderr).toBe(exitCodes.migrationIncomplete.code);
      const refusedReport = JSON.parse(refused.stdout) as MigrationReport;
      expect(refusedReport.crds).toHaveLength(1);
      expect(refusedReport.crds[0]).toMatchObject({
        name: crdName(plainPrefix),
        outcome: 'skipped',
        target: 'v20250601storage',
        storageVersion: plainPrefix.afterStorage,
        migrated: 0,
      });
      expect(await stored(plainPrefix)).toEqual(storedBefore.get(plainPrefix.kind));
      expect(await storedVersionsOf(plainPrefix)).toEqual([
        plainPrefix.beforeStorage,
        plainPrefix.afterStorage,
      ]);

      const run = await migrate(['--to', 'v', ...kindFlags(newerDate)]);
      expect(run.code, run.stderr).toBe(0);
      const plainRun = await migrate(['--to', 'v20230101', ...kindFlags([plainPrefix])]);
      expect(plainRun.code, plainRun.stderr).toBe(0);
      const reports = [
        ...(JSON.parse(run.stdout) as MigrationReport).crds,
        ...(JSON.parse(plainRun.stdout) as MigrationReport).crds,
      ];
      expect(reports.map((crd) => crd.name).sort()).toEqual(cases.map(crdName).sort());

      for (const c of cases) {
        expect(
          reports.find((crd) => crd.name === crdName(c)),
          c.kind,
        ).toMatchObject({
          outcome: 'finished',
          strategy: 'server',
          target: c.afterStorage,
          storageVersion: c.afterStorage,
          storedVersionsBefore: [c.beforeStorage, c.afterStorage],
          storedVersionsAfter: [c.afterStorage],
          migrated: objectsPerKind,
          alreadyCurrent: 0,
          deleted: 0,
          failed: [],
        });
        expect(await storedVersionsOf(c), c.kind).toEqual([c.afterStorage]);

        const before = storedBefore.get(c.kind) ?? [];
        const after = await stored(c);
        expect(after.map((object) => object.key).sort(), c.kind).toEqual(
          before.map((object) => object.key).sort(),
        );
        // What etcd held at the old storage version, converted by the operator's own code to the new one.
        const expected = (
          await convertWithOperator(
            before.map((object) => object.value),
            `${c.group}/${c.afterStorage}`,
          )
        ).map(operatorObject);
        const views = operatorViewBefore.get(c.kind) ?? [];
        expect(views, c.kind).toHaveLength(objectsPerKind);
        const written = originals.get(c.kind) ?? [];
        const writtenApiVersion = written[0]?.apiVersion ?? '';
        // What etcd holds now, converted by the operator to the version the objects were written at.
        const roundTrips = (
          await convertWithOperator(
            after.map((object) => object.value),
            writtenApiVersion,
          )
        ).map(operatorObject);
        for (const [index, original] of written.entries()) {
          const name = original.metadata.name;
          const key = `/${namespace}/${name}`;
          const raw = after.find((object) => object.key.endsWith(key));
          const operator = expected[before.findIndex((object) => object.key.endsWith(key))];
          // etcd holds the object at the new storage version, with the spec and status (property bags and
          // originalVersion included) the operator's conversion of the stored object gives.
          expect(raw?.apiVersion, name).toBe(`${c.group}/${c.afterStorage}`);
          expect(raw?.value.spec, name).toEqual(operator?.spec);
          expect(raw?.value.status, name).toEqual(operator?.status);

          // The upgraded operator reads it (at the new storage version) exactly as it did before the
          // migration, when the webhook converted it on every read; same object, same generation, so the
          // migration does not make the operator reconcile anything.
          const view = await read(c, c.afterStorage, name);
          expect(view.spec, name).toEqual(views[index]?.spec);
          expect(view.status, name).toEqual(views[index]?.status);
          expect(identity(view), name).toEqual(identity(views[index] as KubeObject));
          expect(view.metadata.generation, name).toBe(original.metadata.generation);

          // And a client of the version it was written at reads back what it wrote, as the operator converts
          // the new stored object there.
          const back = await read(c, apiVersionOf(original), name);
          const roundTrip = roundTrips[after.findIndex((object) => object.key.endsWith(key))];
          expect(original.apiVersion, name).toBe(writtenApiVersion);
          expect(back.spec, name).toEqual(roundTrip?.spec);
          expect(back.status, name).toEqual(roundTrip?.status);
          expect(back.spec, name).toEqual(original.spec);
          expect(back.status, name).toEqual(original.status);
          expect(identity(back), name).toEqual(identity(original));
        }
      }
    });
  },
);
