import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { releaseCatalog } from '../../generated/releases.ts';
import { exitCodes } from '../../src/lib/exit-codes.ts';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { crdType } from '../../src/lib/migrate/crds.ts';
import type { UpgradeCheckReport } from '../../src/lib/upgrade/check.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../control-plane/plane.ts';
import { runCli } from '../fixtures/cli.ts';
import { minimalValue, type SchemaNode } from '../fixtures/minimal-object.ts';
import { type RealCrdVersions, realCrdVersions } from '../fixtures/real-crd-versions.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const crds = sharedData('real-aso-crds/v2.18.0', 'test/commands/upgrade-check-cluster.test.ts');
const crds20 = sharedData('real-aso-crds/v2.20.0', 'test/commands/upgrade-check-cluster.test.ts');

type CrdDocument = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; plural: string };
    versions: Array<{ name: string; storage: boolean; schema: { openAPIV3Schema: SchemaNode } }>;
  };
};

/** `group/Kind`, as the release catalog names kinds. */
const kindOf = (crd: CrdDocument) => `${crd.spec.group}/${crd.spec.names.kind}`;

function crdFile(name: string, dir = crds.path): CrdDocument {
  return parse(readFileSync(join(dir, name), 'utf8')) as CrdDocument;
}

/** The catalog's hop from v2.18.0 to v2.20.0, which the test derives its kinds from. */
const hop = releaseCatalog.hops.find((h) => h.from === 'v2.18.0' && h.to === 'v2.20.0');

/** The v2.18.0 CRD files of every kind the hop removes a version of, by file name. */
function removingCrdFiles(crds18: readonly RealCrdVersions[]): string[] {
  return crds18.filter((c) => hop?.kinds[`${c.group}/${c.kind}`]?.removedVersions).map((c) => c.file);
}

/**
 * The smallest v2.18.0 CRD file whose kind the catalog's v2.18.0 -> v2.20.0 hop moves to a new storage
 * version while still serving the old one: picked from the catalog, not named by hand.
 */
function movingCrdFile(crds18: readonly RealCrdVersions[]): string {
  const moves = (kind: string) => {
    const changes = hop?.kinds[kind];
    return changes?.storage !== undefined && !changes.removedVersions?.includes(changes.storage.from);
  };
  const size = (file: string) => statSync(join(crds.path, file)).size;
  const moving = crds18
    .filter((c) => moves(`${c.group}/${c.kind}`))
    .map((c) => c.file)
    .sort((a, b) => size(a) - size(b) || (a < b ? -1 : 1));
  if (moving[0] === undefined) throw new Error('the catalog has no storage move from v2.18.0 to v2.20.0');
  return moving[0];
}

/** The CRD with the storage flag on `version`, as an older release that stored objects there had it. */
function storingAt(crd: CrdDocument, version: string): CrdDocument {
  return {
    ...crd,
    spec: { ...crd.spec, versions: crd.spec.versions.map((v) => ({ ...v, storage: v.name === version })) },
  };
}

/**
 * The real upgrade from v2.18.0 to v2.20.0 on a plane of its own, with the kinds taken from the release
 * catalog: every kind whose version the hop removes gets its real v2.18.0 CRD with one object written and
 * stored at that version (installed storing there, as an older release had it, then the v2.18.0 CRD as the
 * release ships it); a kind whose storage version the hop moves and a ResourceGroup (nothing changes) get
 * their CRDs. The real v2.20.0 CRDs are refused; the check names exactly the blocking CRDs with their object
 * counts and commands; after those commands it no longer blocks, and the real v2.20.0 CRDs apply.
 */
describe.skipIf(!crds.present || !crds20.present)(
  'kubectl aso upgrade-check on a cluster running ASO v2.18.0',
  () => {
    const stateDir = resolve(
      new URL('../..', import.meta.url).pathname,
      `.local/upgrade-check-plane-${process.pid}`,
    );
    let plane: Plane;
    let client: KubeClient;
    const crds18 = crds.present ? realCrdVersions(crds.path) : [];
    const removing = removingCrdFiles(crds18);
    const moving = crds.present ? movingCrdFile(crds18) : '';
    const resourceGroups = 'resources.azure.com_resourcegroups.yaml';
    /** Replaces an installed CRD by `document`, as `kubectl apply` of a newer release's CRD does. */
    const replaceCrd = (document: CrdDocument) =>
      applyObject(client, document, { ...crdType, namespaced: false });
    /** The API version of a removing kind that the hop removes, which its object is written at. */
    const removedVersionOf = (crd: CrdDocument) =>
      hop?.kinds[kindOf(crd)]?.removedVersions?.find((v) => !v.endsWith('storage')) ?? '';
    const check = (...args: string[]) =>
      runCli([
        'upgrade-check',
        '--to',
        'v2.20.0',
        ...args,
        '--kubeconfig',
        plane.kubeconfig,
        '--context',
        'admin',
      ]);

    beforeAll(async () => {
      plane = await startPlane(stateDir, { withGenerated: false });
      client = await clientFor(plane);
      for (const file of removing) {
        const real = crdFile(file);
        const version = removedVersionOf(real);
        await applyObject(client, storingAt(real, `${version}storage`), { ...crdType, namespaced: false });
        await waitForEstablished(client, real.metadata.name);
        const schema = real.spec.versions.find((v) => v.name === version)?.schema.openAPIV3Schema;
        await applyObject(
          client,
          {
            apiVersion: `${real.spec.group}/${version}`,
            kind: real.spec.names.kind,
            metadata: { name: 'stored-at-removed', namespace: 'default' },
            spec: minimalValue(schema?.properties?.spec ?? {}) as Record<string, unknown>,
          },
          { group: real.spec.group, version, plural: real.spec.names.plural, namespaced: true },
        );
        await replaceCrd(real);
      }
      for (const file of [resourceGroups, moving]) {
        const real = crdFile(file);
        await applyObject(client, real, { ...crdType, namespaced: false });
        await waitForEstablished(client, real.metadata.name);
      }
    }, 300_000);

    afterAll(async () => {
      await stopPlane(stateDir);
    });

    it('finds the kinds to store at a removed version in the catalog: the three AKS kinds v2.19 drops v1api20240402preview of', () => {
      expect(removing.map((f) => kindOf(crdFile(f)))).toEqual([
        'containerservice.azure.com/ManagedCluster',
        'containerservice.azure.com/ManagedClustersAgentPool',
        'containerservice.azure.com/TrustedAccessRoleBinding',
      ]);
      expect(removing.map((f) => removedVersionOf(crdFile(f)))).toEqual(
        removing.map(() => 'v1api20240402preview'),
      );
    });

    it('names exactly the CRDs whose stored versions v2.20.0 removes, which the API server refuses to upgrade', async () => {
      // The real v2.20.0 CRDs do not apply yet: the API server refuses each for the stored version it removes.
      for (const file of removing)
        await expect(replaceCrd(crdFile(file, crds20.path))).rejects.toThrow(
          /storedVersions\[\d\]: Invalid value: "v1api20240402previewstorage": missing from spec.versions/,
        );
      const run = await check('-o', 'json');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(exitCodes.upgradeBlocked.code);
      const report = JSON.parse(run.stdout) as UpgradeCheckReport;
      expect(report.from).toBe('v2.18.0');
      expect(report.cluster?.installed).toMatchObject({
        release: 'v2.18.0',
        releaseFrom: 'crd-labels',
        crds: removing.length + 2,
      });
      expect(report.cluster?.storedVersions).toEqual(
        removing.map((file) => {
          const crd = crdFile(file);
          const storage = crd.spec.versions.find((v) => v.storage)?.name ?? '';
          return {
            hop: 'v2.18.0 -> v2.20.0',
            crd: crd.metadata.name,
            kind: kindOf(crd),
            versions: ['v1api20240402previewstorage'],
            objects: 1,
            fix: `kubectl aso migrate --to ${storage.replace(/storage$/, '')} --kind ${crd.metadata.name}`,
          };
        }),
      );
      // The CRD whose storage v2.20.0 moves does not block, and the operator, whose Deployment was not read,
      // clears the old stored version itself provided it manages its CRDs.
      const moved = crdFile(moving);
      const move = hop?.kinds[kindOf(moved)]?.storage;
      expect(report.cluster?.storageMoves).toEqual([
        {
          hop: 'v2.18.0 -> v2.20.0',
          crd: moved.metadata.name,
          kind: kindOf(moved),
          from: move?.from,
          to: move?.to,
          by: 'operator',
          how: `ASO v2.20.0 drops ${move?.from} from storedVersions by itself if it manages its CRDs (--crd-management auto) once it has reconciled every object, which stores it at ${move?.to}: nothing to run`,
        },
      ]);
    });

    it('no longer blocks once the printed commands have run, and still warns of the objects applied at the removed version', async () => {
      const blocked = JSON.parse((await check('-o', 'json')).stdout) as UpgradeCheckReport;
      for (const finding of blocked.cluster?.storedVersions ?? []) {
        const [kubectl, aso, ...command] = finding.fix.split(' ');
        expect([kubectl, aso]).toEqual(['kubectl', 'aso']);
        const migrate = await runCli([...command, '--kubeconfig', plane.kubeconfig, '--context', 'admin']);
        expect(migrate.code, migrate.stdout + migrate.stderr).toBe(0);
      }
      const run = await check();
      expect(run.code, run.stdout + run.stderr).toBe(exitCodes.upgradeWarnings.code);
      expect(run.stdout).toContain('Cluster: ASO v2.18.0');
      expect(run.stdout).toContain('CRDs whose stored versions an upgrade hop removes: 0');
      expect(run.stdout).toContain(`Ready, with ${removing.length} warnings.`);
      const report = JSON.parse((await check('-o', 'json')).stdout) as UpgradeCheckReport;
      expect(report.cluster?.appliedVersions).toMatchObject(
        removing.map((file) => ({
          kind: kindOf(crdFile(file)),
          namespace: 'default',
          version: 'v1api20240402preview',
          objects: 1,
          names: ['stored-at-removed'],
        })),
      );
    }, 300_000);

    it('reports CRDs of mixed releases as such instead of guessing', async () => {
      const rg = crdFile('resources.azure.com_resourcegroups.yaml');
      const current = await client.request<{
        metadata: { resourceVersion: string; labels?: Record<string, string> };
      }>({
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/resourcegroups.resources.azure.com',
        subject: { verb: 'get', resource: 'customresourcedefinitions' },
      });
      await client.request({
        method: 'PUT',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/resourcegroups.resources.azure.com',
        body: {
          ...rg,
          metadata: {
            ...rg.metadata,
            resourceVersion: current.metadata.resourceVersion,
            labels: { ...rg.metadata.labels, 'app.kubernetes.io/version': 'v2.20.0' },
          },
        },
        subject: { verb: 'update', resource: 'customresourcedefinitions' },
      });
      const run = await check();
      expect(run.code).toBe(exitCodes.invalidInput.code);
      expect(run.stderr).toContain(
        `the ASO CRDs are of several releases: v2.18.0: ${removing.length + 1} CRDs`,
      );
      expect(run.stderr).toContain('v2.20.0: 1 CRDs (resourcegroups.resources.azure.com)');
    });
    it("takes the release from the operator's image when there is one, with how it manages CRDs", async () => {
      await applyObject(
        client,
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: 'azureserviceoperator-controller-manager',
            namespace: 'default',
            labels: { 'app.kubernetes.io/name': 'azure-service-operator' },
          },
          spec: {
            selector: { matchLabels: { app: 'aso' } },
            template: {
              metadata: { labels: { app: 'aso' } },
              spec: {
                containers: [
                  {
                    name: 'manager',
                    image: 'mcr.microsoft.com/k8s/azureserviceoperator:v2.18.0',
                    args: [
                      '--crd-management=none',
                      '--crd-pattern=resources.azure.com/*;containerservice.azure.com/*',
                    ],
                  },
                ],
              },
            },
          },
        },
        { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true },
      );
      const run = await check('-o', 'json');
      const report = JSON.parse(run.stdout) as UpgradeCheckReport;
      expect(report.cluster?.installed).toMatchObject({
        release: 'v2.18.0',
        releaseFrom: 'image',
        deployment: {
          namespace: 'default',
          name: 'azureserviceoperator-controller-manager',
          crdManagement: 'none',
          crdPatterns: ['resources.azure.com/*', 'containerservice.azure.com/*'],
        },
      });
      // An operator that does not manage its CRDs leaves the moved-away stored version to the user.
      expect(report.cluster?.storageMoves.map((m) => [m.by, m.how.split(':')[0]])).toEqual([
        ['migrate', 'ASO v2.20.0 cleans storedVersions only with --crd-management auto (here none)'],
      ]);
    });

    it('then takes the real v2.20.0 CRDs without a storage error', async () => {
      for (const file of [...removing, resourceGroups, moving]) {
        const newer = crdFile(file, crds20.path);
        await replaceCrd(newer);
        const stored = await client.request<{ status: { storedVersions: string[] } }>({
          path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${newer.metadata.name}`,
          subject: { verb: 'get', resource: 'customresourcedefinitions' },
        });
        const served = newer.spec.versions.map((v) => v.name);
        expect(stored.status.storedVersions.filter((v) => !served.includes(v))).toEqual([]);
      }
    });
  },
);
