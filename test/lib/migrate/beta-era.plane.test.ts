import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { convert } from '../../../src/lib/conversion/convert.ts';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { Conflict, NotFound } from '../../../src/lib/kube/errors.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { crdType, readCrd } from '../../../src/lib/migrate/crds.ts';
import { clusterSchemas } from '../../../src/lib/migrate/manifests/cluster-schemas.ts';
import { manifestOptionsOf } from '../../../src/lib/migrate/manifests/options.ts';
import { runManifestMigration } from '../../../src/lib/migrate/manifests/run.ts';
import { type MigrateFlags, migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { runMigration } from '../../../src/lib/migrate/run.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import { asoModuleDir, chartCrds } from '../../fixtures/aso-charts.ts';
import { adminClient, freshNamespace, testPlane, uniqueSuffix } from '../../fixtures/cluster.ts';
import { goToolchain } from '../../fixtures/operator-conversion.ts';
import { sharedData } from '../../fixtures/shared-data.ts';
import {
  moveStorage,
  type RenamingWebhook,
  realGroup,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
  type TestCrd,
  waitForStorageInEffect,
} from './support.ts';

/**
 * Seed 003's era: clusters installed from ASO's beta releases, whose CRDs (v2.0.0-beta.5, from the operator's
 * Go module) serve `v1alpha1api` and `v1beta` versions and store at `v1beta20210601storage`, while objects
 * written under an alpha release still sit at `v1alpha1api20210601storage`. The release that followed dropped
 * the alpha versions, which the API server refuses while `status.storedVersions` names them; migrate is what
 * makes that upgrade possible. The kind is PostgreSQL's FlexibleServer, under a group of the test's own (the
 * suite's plane carries the generated CRD of the real group) and converted by the generated conversions.
 */
const neededBy = 'test/lib/migrate/beta-era.plane.test.ts';
const go = goToolchain(neededBy);
const realCrds = sharedData('real-aso-crds/v2.20.0', neededBy);

const alpha = 'v1alpha1api20210601';
const alphaStorage = 'v1alpha1api20210601storage';
const beta = 'v1beta20210601';
const betaStorage = 'v1beta20210601storage';
const hubStorage = 'v20250801storage';
const crdFile = 'flexibleservers.dbforpostgresql.azure.com';

type Version = { name: string; served: boolean; storage: boolean };
type CrdDocument = KubeObject & {
  spec: { group: string; versions: Version[]; conversion?: unknown };
  status?: unknown;
};

/** The beta.5 CRD under `group`, stored at `storage`, its conversions sent to `webhook`. */
function betaCrd(
  source: KubeObject,
  group: string,
  storage: string,
  webhook: RenamingWebhook,
  keep: (version: Version) => boolean = () => true,
): CrdDocument {
  const crd = structuredClone(source) as CrdDocument;
  crd.metadata = { name: `flexibleservers.${group}` };
  crd.spec.group = group;
  crd.spec.versions = crd.spec.versions.filter(keep);
  for (const version of crd.spec.versions) version.storage = version.name === storage;
  // The chart points at the operator's Service with ConversionReview v1beta1; the test's webhook is on loopback.
  crd.spec.conversion = {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1'],
      clientConfig: { url: webhook.url, caBundle: webhook.caBundle },
    },
  };
  delete crd.status;
  return crd;
}

/** A FlexibleServer as an alpha-era manifest declared it: only properties the beta.5 alpha schema has. */
function alphaServer(group: string, namespace: string, index: number): KubeObject {
  return {
    apiVersion: `${group}/${alpha}`,
    kind: 'FlexibleServer',
    metadata: { name: `server-${index}`, namespace, labels: { era: 'alpha' } },
    spec: {
      owner: { name: 'rg' },
      location: 'westeurope',
      version: '13',
      administratorLogin: 'admin',
      sku: { name: 'Standard_D4s_v3', tier: 'GeneralPurpose' },
      storage: { storageSizeGB: 128 + index },
      tags: { index: String(index) },
    },
  };
}

/** The real v2.20.0 FlexibleServer CRD, as the operator's release ships it. */
function realFlexibleServerCrd(): CrdDocument {
  const text = readFileSync(join(realCrds.path, `${realGroup}_flexibleservers.yaml`), 'utf8');
  return parseAllDocuments(text)[0]?.toJS() as CrdDocument;
}

const flags = (test: TestCrd, namespace: string, to: string): MigrateFlags => ({
  to,
  kind: [test.name],
  strategy: 'server',
  'batch-size': 4,
  concurrency: 2,
  'dry-run': false,
  restart: false,
  'state-namespace': namespace,
});
const quiet = { log: () => {}, interrupted: () => false };

/** Deletes a CRD (and so its objects) and waits until the API server no longer has it. */
async function deleteCrd(admin: KubeClient, name: string): Promise<void> {
  const path = resourcePath(crdType, undefined, name);
  const subject = { verb: 'delete', resource: 'customresourcedefinitions' };
  try {
    await admin.request({ method: 'DELETE', path, subject });
  } catch (error) {
    if (error instanceof NotFound) return;
    throw error;
  }
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      await admin.request({ path, subject: { ...subject, verb: 'get' } });
    } catch (error) {
      if (error instanceof NotFound) return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not deleted within 120 s`);
}

const renamed = (object: unknown, from: string, to: string) =>
  JSON.parse(JSON.stringify(object).replaceAll(`"${from}/`, `"${to}/`)) as KubeObject;

describe.skipIf(!go.present || !realCrds.present)(
  'migrate in the alpha/beta era (ASO v2.0.0-beta.5 CRDs)',
  () => {
    let admin: KubeClient;
    let webhook: RenamingWebhook;
    let source: KubeObject;

    beforeAll(async () => {
      admin = await adminClient();
      webhook = await startRenamingWebhook(testPlane());
      const crds = chartCrds(asoModuleDir('v2.20.0'), 'azure-service-operator-crds-v2.0.0-beta.5');
      const found = crds.get(crdFile);
      if (!found) throw new Error(`the beta.5 chart has no ${crdFile}`);
      source = found;
    }, 300_000);
    /** CRDs this file made; removed afterwards, so no other test's cluster-wide view meets their dead webhook. */
    const made: string[] = [];
    afterAll(async () => {
      for (const name of made) await deleteCrd(admin, name);
      await webhook?.close();
    }, 300_000);

    // The API server's own controllers write a new CRD's status meanwhile; a replace that loses that race
    // (409, seen once on a loaded CI machine) reads the CRD again and retries, as a client must.
    const replaceCrd = async (crd: CrdDocument): Promise<unknown> => {
      for (let attempt = 1; ; attempt++) {
        const current = await readCrd(admin, crd.metadata.name);
        try {
          return await admin.request({
            method: 'PUT',
            path: resourcePath(crdType, undefined, crd.metadata.name),
            body: {
              ...crd,
              metadata: { ...crd.metadata, resourceVersion: current.metadata.resourceVersion },
            },
            subject: { verb: 'update', resource: 'customresourcedefinitions' },
          });
        } catch (error) {
          if (!(error instanceof Conflict) || attempt >= 5) throw error;
        }
      }
    };

    it('moves objects from the alpha storage version to the beta hub, after which the release dropping alpha applies', async () => {
      const group = `m${uniqueSuffix()}.azure.com`;
      const crd = betaCrd(source, group, alphaStorage, webhook);
      made.push(crd.metadata.name);
      await applyObject(admin, crd);
      await waitForEstablished(admin, crd.metadata.name, 120_000);
      const test: TestCrd = {
        group,
        name: crd.metadata.name,
        type: { group, version: alpha, plural: 'flexibleservers' },
      };
      const namespace = await freshNamespace('beta-era');

      // Written under an alpha release, strictly validated, so nothing is pruned out of sight.
      const originals = Array.from({ length: 6 }, (_, index) => alphaServer(group, namespace, index));
      for (const object of originals) {
        await admin.request({
          method: 'POST',
          path: `${resourcePath(test.type, namespace)}?fieldValidation=Strict`,
          body: object,
          subject: { verb: 'create', resource: test.name, namespace },
        });
      }
      // The beta.5 install: the storage flag goes back to where the chart has it.
      await moveStorage(admin, crd.metadata.name, betaStorage);
      await waitForStorageInEffect(admin, testPlane(), test, namespace, betaStorage);
      const before = await storedObjects(testPlane(), test);
      const atAlpha = before.filter((object) => object.apiVersion === `${group}/${alphaStorage}`);
      expect(atAlpha).toHaveLength(originals.length);
      expect(await storedVersions(admin, test)).toEqual([alphaStorage, betaStorage]);

      // The next release drops the alpha versions; with objects still stored there, the API server refuses it.
      const withoutAlpha = betaCrd(
        source,
        group,
        betaStorage,
        webhook,
        (v) => !v.name.startsWith('v1alpha1api'),
      );
      await expect(replaceCrd(withoutAlpha)).rejects.toThrow(
        new RegExp(`storedVersions\\[0\\].*${alphaStorage}.*spec\\.versions`),
      );

      const { report, exit } = await runMigration(
        admin,
        migrateOptionsOf(flags(test, namespace, 'v1beta'), 'default'),
        quiet,
      );
      expect(exit).toBe('ok');
      expect(report.crds[0]).toMatchObject({
        outcome: 'finished',
        target: betaStorage,
        storedVersionsBefore: [alphaStorage, betaStorage],
        storedVersionsAfter: [betaStorage],
        migrated: originals.length,
        failed: [],
      });
      const after = await storedObjects(testPlane(), test);
      expect(after.map((object) => object.key).sort()).toEqual(before.map((object) => object.key).sort());
      expect(new Set(after.map((object) => object.apiVersion))).toEqual(new Set([`${group}/${betaStorage}`]));

      // Every object reads back, at alpha, exactly as written, and at beta as the conversions give it.
      for (const original of originals) {
        const name = original.metadata.name;
        const atVersion = (version: string) =>
          admin.request<KubeObject>({
            path: resourcePath({ ...test.type, version }, namespace, name),
            subject: { verb: 'get', resource: test.name, namespace },
          });
        expect((await atVersion(alpha)).spec, name).toEqual(original.spec);
        const expected = renamed(convert(renamed(original, group, realGroup), beta), realGroup, group);
        expect((await atVersion(beta)).spec, name).toEqual(expected.spec);
      }

      // Now the release without the alpha versions applies, and every object is still there.
      await replaceCrd(withoutAlpha);
      const upgraded = await readCrd(admin, crd.metadata.name);
      expect(upgraded.spec.versions.map((version) => version.name)).not.toContain(alphaStorage);
      expect(upgraded.status?.storedVersions).toEqual([betaStorage]);
      const list = await admin.request<{ items: KubeObject[] }>({
        path: resourcePath({ ...test.type, version: beta }, namespace),
        subject: { verb: 'list', resource: test.name, namespace },
      });
      expect(list.items.map((object) => object.metadata.name).sort()).toEqual(
        [...originals.map((object) => object.metadata.name), 'storage-probe'].sort(),
      );

      // The releases after beta.5 add the v1api versions (and, by v2.20.0, the plain-prefix hub) beside the
      // v1beta ones, then drop v1beta: the objects, now at the beta hub, must move once more first.
      const real = realFlexibleServerCrd();
      const withBeta = betaCrd(
        { ...real, spec: { ...real.spec, versions: [...withoutAlpha.spec.versions, ...real.spec.versions] } },
        group,
        hubStorage,
        webhook,
      );
      await replaceCrd(withBeta);
      await waitForStorageInEffect(admin, testPlane(), test, namespace, hubStorage, beta);
      const realOnly = betaCrd(real, group, hubStorage, webhook);
      await expect(replaceCrd(realOnly)).rejects.toThrow(
        new RegExp(`storedVersions\\[0\\].*${betaStorage}.*spec\\.versions`),
      );
      const second = await runMigration(
        admin,
        migrateOptionsOf(flags(test, namespace, 'v'), 'default'),
        quiet,
      );
      expect(second.exit).toBe('ok');
      expect(second.report.crds[0]).toMatchObject({
        outcome: 'finished',
        target: hubStorage,
        storedVersionsBefore: [betaStorage, hubStorage],
        storedVersionsAfter: [hubStorage],
        migrated: originals.length,
        failed: [],
      });
      await replaceCrd(realOnly);
      expect((await readCrd(admin, crd.metadata.name)).status?.storedVersions).toEqual([hubStorage]);
      // Under v2.20.0's own CRD, each object is what the alpha manifest converts to at the hub.
      for (const original of originals) {
        const name = original.metadata.name;
        const read = await admin.request<KubeObject>({
          path: resourcePath({ ...test.type, version: 'v20250801' }, namespace, name),
          subject: { verb: 'get', resource: test.name, namespace },
        });
        const expected = renamed(convert(renamed(original, group, realGroup), 'v20250801'), realGroup, group);
        expect(read.spec, name).toEqual(expected.spec);
      }
    }, 900_000);

    it('turns alpha-era manifests into v1beta and v1api ones that the beta.5 and v2.20.0 CRDs accept strictly', async () => {
      const group = `m${uniqueSuffix()}.azure.com`;
      const crd = betaCrd(source, group, betaStorage, webhook);
      made.push(crd.metadata.name);
      await applyObject(admin, crd);
      await waitForEstablished(admin, crd.metadata.name, 120_000);
      const namespace = await freshNamespace('beta-era-files');

      const dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-beta-era-'));
      const file = join(dir, 'servers.yaml');
      const manifests = [0, 1].map((index) => alphaServer(realGroup, namespace, index));
      writeFileSync(
        file,
        `# alpha-era servers\n${manifests.map((object) => JSON.stringify(object, null, 2)).join('\n---\n')}\n`,
      );
      const schemas = clusterSchemas(async () => admin);
      const convertTo = async (to: string) => {
        const outcome = await runManifestMigration(
          manifestOptionsOf({
            filename: [file],
            to,
            recursive: false,
            write: false,
            diff: false,
            'allow-loss': false,
          }),
          schemas,
        );
        return parseAllDocuments(outcome.stdout).map((document) => document.toJS() as KubeObject);
      };

      const asBeta = await convertTo('v1beta');
      expect(asBeta.map((object) => object.apiVersion)).toEqual(manifests.map(() => `${realGroup}/${beta}`));
      // The beta.5 CRD takes them as they are: strict validation refuses any property its beta schema lacks.
      for (const object of asBeta) {
        const created = await admin.request<KubeObject>({
          method: 'POST',
          path: `${resourcePath({ group, version: beta, plural: 'flexibleservers' }, namespace)}?fieldValidation=Strict`,
          body: renamed(object, realGroup, group),
          subject: { verb: 'create', resource: crd.metadata.name, namespace },
        });
        // Read at alpha through the webhook, the beta object is the alpha manifest it came from.
        const back = await admin.request<KubeObject>({
          path: resourcePath(
            { group, version: alpha, plural: 'flexibleservers' },
            namespace,
            created.metadata.name,
          ),
          subject: { verb: 'get', resource: crd.metadata.name, namespace },
        });
        const original = manifests.find((m) => m.metadata.name === created.metadata.name);
        expect(back.spec, created.metadata.name).toEqual(original?.spec);
      }

      const asApi = await convertTo('v1api');
      expect(asApi.map((object) => object.apiVersion)).toEqual(
        manifests.map(() => `${realGroup}/v1api20240801`),
      );
      // And the v1api ones are what the real v2.20.0 CRD accepts, checked by the API server's strict dry run.
      const realCrd = realFlexibleServerCrd();
      const apiGroup = `m${uniqueSuffix()}.azure.com`;
      realCrd.metadata = { name: `flexibleservers.${apiGroup}` };
      realCrd.spec.group = apiGroup;
      made.push(realCrd.metadata.name);
      await applyObject(admin, realCrd);
      await waitForEstablished(admin, realCrd.metadata.name, 180_000);
      for (const object of asApi) {
        await admin.request({
          method: 'POST',
          path: `${resourcePath({ group: apiGroup, version: 'v1api20240801', plural: 'flexibleservers' }, namespace)}?fieldValidation=Strict&dryRun=All`,
          body: renamed(object, realGroup, apiGroup),
          subject: { verb: 'create', resource: realCrd.metadata.name, namespace },
        });
      }
    }, 600_000);
  },
);
