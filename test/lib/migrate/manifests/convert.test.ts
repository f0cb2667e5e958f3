import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { registry } from '../../../../generated/registry.ts';
import { convert } from '../../../../src/lib/conversion/convert.ts';
import { UsageError } from '../../../../src/lib/errors.ts';
import { connect } from '../../../../src/lib/kube/connect.ts';
import { ManifestError } from '../../../../src/lib/manifests/errors.ts';
import { clusterSchemas } from '../../../../src/lib/migrate/manifests/cluster-schemas.ts';
import type { CrdSchemas } from '../../../../src/lib/migrate/manifests/convert-object.ts';
import { ConversionLoss, NoManifestTarget } from '../../../../src/lib/migrate/manifests/errors.ts';
import { type ManifestFlags, manifestOptionsOf } from '../../../../src/lib/migrate/manifests/options.ts';
import { runManifestMigration } from '../../../../src/lib/migrate/manifests/run.ts';
import { migrateOptionsOf } from '../../../../src/lib/migrate/options.ts';
import { crdSchemasFromDir } from '../../../fixtures/crd-files.ts';
import { sharedData } from '../../../fixtures/shared-data.ts';

const neededBy = 'test/lib/migrate/manifests/convert.test.ts';
const samples = sharedData('aso-samples/v2.20.0', neededBy);
const realCrds = sharedData('real-aso-crds/v2.20.0', neededBy);

/** The real "no cluster" path: a kubeconfig that does not exist, so every lookup answers why. */
const noCluster = (): CrdSchemas =>
  clusterSchemas(() => connect({ kubeconfig: join(tmpdir(), 'kubectl-aso-no-such-kubeconfig') }));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-manifests-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function put(path: string, text: string): string {
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function run(
  flags: Partial<ManifestFlags> & { filename: string[]; to: string },
  schemas = noCluster(),
  stdin?: string,
) {
  const options = manifestOptionsOf(
    { recursive: false, write: false, diff: false, 'allow-loss': false, ...flags },
    stdin === undefined ? undefined : () => stdin,
  );
  return runManifestMigration(options, schemas);
}

function documents(text: string): Array<Record<string, unknown>> {
  return parseAllDocuments(text).map((document) => document.toJS() as Record<string, unknown>);
}

/**
 * An object at its kind's hub: two manifests mean the same when they convert to the same hub object, but
 * for `originalVersion`, which records the API version the object was written at.
 */
function atHub(object: Record<string, unknown>): unknown {
  const [group] = String(object.apiVersion).split('/');
  const hub = registry.groups[group as string]?.[String(object.kind)]?.hub as string;
  const stored = convert(object, hub);
  const { originalVersion: _, ...spec } = stored.spec as Record<string, unknown>;
  return { ...stored, spec };
}

const alphaServer = `# Postgres for the orders service
apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601 # the era before v1beta
kind: FlexibleServer
metadata:
  name: orders-db
  namespace: shop
  labels: {app: orders, tier: "db"}
spec:
  location: westeurope
  # owned by the shop's resource group
  owner:
    name: shop-rg
  version: "13"
  sku:
    name: Standard_D2s_v3
    tier: GeneralPurpose
  administratorLogin: orders
  storage:
    storageSizeGB: 128 # grows by hand
`;

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: orders-settings   # not an ASO object: left alone
data:
    retries: "3"
`;

describe('migrate -f: manifest conversion', () => {
  it('converts a v1alpha1api FlexibleServer to v1api on stdout, keeping comments, key order and other documents', async () => {
    const file = put('orders.yaml', `${alphaServer}---\n${configMap}`);
    const outcome = await run({ filename: [file], to: 'v1api' });

    const [server, settings] = documents(outcome.stdout) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(server.apiVersion).toBe('dbforpostgresql.azure.com/v1api20240801');
    const original = documents(alphaServer)[0] as Record<string, unknown>;
    expect(atHub(server)).toEqual(atHub(original));
    expect(Object.keys(server.spec as object)).toEqual(Object.keys(original.spec as object));
    for (const comment of ['# Postgres for the orders service', '# owned by the shop', '# grows by hand']) {
      expect(outcome.stdout).toContain(comment);
    }
    expect(outcome.stdout).toContain('labels: {app: orders, tier: "db"}');
    expect(outcome.stdout.endsWith(configMap)).toBe(true);
    expect(settings.kind).toBe('ConfigMap');
    expect(outcome.report.objects).toMatchObject([
      {
        kind: 'FlexibleServer',
        name: 'orders-db',
        from: 'v1alpha1api20210601',
        to: 'v1api20240801',
        how: 'converted',
      },
    ]);
    expect(outcome.report.files).toEqual([{ file, changed: true }]);
    expect(readFileSync(file, 'utf8')).toBe(`${alphaServer}---\n${configMap}`);
  });

  it('changes nothing, byte for byte, when the manifests are already at the target', async () => {
    const first = await run({
      filename: [put('orders.yaml', `${alphaServer}---\n${configMap}`)],
      to: 'v1api',
    });
    const again = put('converted.yaml', first.stdout);
    const second = await run({ filename: [again], to: 'v1api', write: true });
    expect(second.report.objects.map((object) => object.how)).toEqual(['unchanged']);
    expect(second.report.files).toEqual([{ file: again, changed: false }]);
    expect(readFileSync(again, 'utf8')).toBe(first.stdout);
  });

  it('--diff prints a unified diff instead of the YAML and says by its exit whether anything would change', async () => {
    const file = put('orders.yaml', `${alphaServer}---\n${configMap}`);
    const outcome = await run({ filename: [file], to: 'v1beta', diff: true });
    expect(outcome.exit).toBe('manifestsChanged');
    expect(outcome.stdout).toBe(
      `--- a/${file}\n+++ b/${file}\n@@ -1,5 +1,5 @@\n # Postgres for the orders service\n-apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601 # the era before v1beta\n+apiVersion: dbforpostgresql.azure.com/v1beta20210601 # the era before v1beta\n kind: FlexibleServer\n metadata:\n   name: orders-db\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(`${alphaServer}---\n${configMap}`);

    const written = await run({ filename: [file], to: 'v1beta', diff: true, write: true });
    expect(written.exit).toBe('manifestsChanged');
    const again = await run({ filename: [file], to: 'v1beta', diff: true });
    expect(again).toMatchObject({ exit: 'ok', stdout: '' });
  });

  it('converts the items of a kind: List and reads stdin', async () => {
    const list = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [documents(alphaServer)[0], documents(configMap)[0]],
    });
    const outcome = await run({ filename: ['-'], to: 'v1beta' }, noCluster(), list);
    const [converted] = documents(outcome.stdout) as [{ items: Array<Record<string, unknown>> }];
    expect(converted.items.map((item) => item.apiVersion)).toEqual([
      'dbforpostgresql.azure.com/v1beta20210601',
      'v1',
    ]);
    expect(outcome.report.objects[0]?.source).toBe('<stdin>#1.items[0]');
  });

  it('--write rewrites only the files that change, in place and atomically, keeping their mode', async () => {
    const old = put('apps/orders/db.yaml', alphaServer);
    chmodSync(old, 0o600);
    const current = put('apps/orders/settings.yaml', configMap);
    const currentBefore = statSync(current);
    const outcome = await run({ filename: [join(dir, 'apps')], recursive: true, to: 'v1api', write: true });

    const expected = await run({ filename: [put('copy/db.yaml', alphaServer)], to: 'v1api' });
    expect(readFileSync(old, 'utf8')).toBe(expected.stdout);
    expect(statSync(old).mode & 0o777).toBe(0o600);
    expect(statSync(current).mtimeMs).toBe(currentBefore.mtimeMs);
    expect(readdirSync(join(dir, 'apps/orders')).sort()).toEqual(['db.yaml', 'settings.yaml']);
    expect(outcome.stdout).toBe('');
    expect(outcome.report.files).toEqual([
      { file: old, changed: true, writtenTo: old },
      { file: current, changed: false },
    ]);
  });

  it('--output-dir writes a complete converted copy of the tree and leaves the inputs alone', async () => {
    const old = put('in/orders/db.yaml', alphaServer);
    put('in/orders/settings.yaml', configMap);
    const single = put('loose.yaml', alphaServer);
    const out = join(dir, 'out');
    await run({ filename: [join(dir, 'in'), single], recursive: true, to: 'v1beta', 'output-dir': out });

    const written = readdirSync(out, { recursive: true, encoding: 'utf8' }).sort();
    expect(written).toEqual([
      'loose.yaml',
      'orders',
      join('orders', 'db.yaml'),
      join('orders', 'settings.yaml'),
    ]);
    expect(readFileSync(old, 'utf8')).toBe(alphaServer);
    expect(readFileSync(join(out, 'orders/settings.yaml'), 'utf8')).toBe(configMap);
    const [db] = documents(readFileSync(join(out, 'orders/db.yaml'), 'utf8'));
    expect(db?.apiVersion).toBe('dbforpostgresql.azure.com/v1beta20210601');
  });

  it('fails on malformed YAML naming the file and line, before any file is written', async () => {
    const good = put('a.yaml', alphaServer);
    const bad = put('b.yaml', 'apiVersion: v1\nkind: ConfigMap\ndata: {unclosed: [1, 2\n');
    const failure = run({ filename: [dir], to: 'v1api', write: true });
    await expect(failure).rejects.toBeInstanceOf(ManifestError);
    await expect(failure).rejects.toThrow(new RegExp(`^${bad}:\\d+: malformed YAML`));
    expect(readFileSync(good, 'utf8')).toBe(alphaServer);
  });

  it('refuses a conversion that would lose a value, naming file, line, object and property', async () => {
    // The operator's 2024-08-01 spec takes the key status; its 2025-08-01 spec has no place for it.
    const servers = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: dbforpostgresql.azure.com/v1api20240801
kind: FlexibleServer
metadata:
  name: orders-db
spec:
  owner:
    name: orders-rg
  location: westeurope
  dataEncryption:
    type: SystemManaged
    primaryEncryptionKeyStatus: Valid
`;
    const file = put('servers.yaml', servers);
    const failure = run({ filename: [file], to: 'v20250801', write: true });
    await expect(failure).rejects.toBeInstanceOf(ConversionLoss);
    await expect(failure).rejects.toThrow(
      `${file}:6 (document 2) FlexibleServer/orders-db: v20250801 cannot hold spec.dataEncryption.primaryEncryptionKeyStatus`,
    );
    expect(readFileSync(file, 'utf8')).toBe(servers);

    const allowed = await run({ filename: [file], to: 'v20250801', 'allow-loss': true });
    const [, server] = documents(allowed.stdout) as [unknown, { spec: Record<string, unknown> }];
    expect(server.spec.dataEncryption).toEqual({ type: 'SystemManaged' });
    expect(server.spec.location).toBe('westeurope');
    expect(allowed.report.objects[0]?.dropped).toEqual(['spec.dataEncryption.primaryEncryptionKeyStatus']);
    expect(allowed.report.warnings).toContainEqual(
      expect.stringContaining('--allow-loss dropped spec.dataEncryption.primaryEncryptionKeyStatus'),
    );
  });

  it('names the object when --to has no version for it', async () => {
    const file = put(
      'rg.yaml',
      'apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata:\n  name: rg\nspec:\n  location: westeurope\n',
    );
    await expect(run({ filename: [file], to: 'v1api20240801' })).rejects.toBeInstanceOf(NoManifestTarget);
    await expect(run({ filename: [file], to: 'v1api20240801' })).rejects.toThrow(
      `${file}:1 (document 1) ResourceGroup/rg`,
    );
  });

  it('moves the kinds that have an exact --to version and leaves the others in the file as they are', async () => {
    // What upgrade-check prints for an AKS cluster at a version v2.20.0 removed, in a file beside other kinds.
    const group =
      'apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata:\n  name: rg\nspec:\n  location: westeurope\n';
    const cluster =
      'apiVersion: containerservice.azure.com/v1api20240402preview\nkind: ManagedCluster\nmetadata:\n  name: aks\nspec:\n  location: westeurope\n  owner:\n    name: rg\n  dnsPrefix: aks\n';
    const file = put('app.yaml', `${group}---\n${cluster}`);
    const outcome = await run({ filename: [file], to: 'v1api20250801' });
    expect(outcome.report.objects.map((o) => [o.kind, o.to, o.how, o.note])).toEqual([
      ['ResourceGroup', 'v1api20200601', 'unchanged', 'the kind has no version v1api20250801'],
      ['ManagedCluster', 'v1api20250801', 'converted', undefined],
    ]);
    const [first, second] = documents(outcome.stdout) as [unknown, { apiVersion: string; spec: unknown }];
    expect(first).toEqual(parse(group));
    expect(second.apiVersion).toBe('containerservice.azure.com/v1api20250801');
    expect(second.spec).toEqual({ location: 'westeurope', owner: { name: 'rg' }, dnsPrefix: 'aks' });
  });

  it('leaves a kind the operator manages without ARM (a MySQL user, only ever v1) as it is at --to latest, with no cluster', async () => {
    const user =
      'apiVersion: dbformysql.azure.com/v1\nkind: User\nmetadata:\n  name: app\nspec:\n  owner:\n    name: db\n  privileges: [PROCESS]\n';
    const file = put('user.yaml', user);
    const outcome = await run({ filename: [file], to: 'latest' });
    expect(outcome.report.objects).toEqual([
      expect.objectContaining({ kind: 'User', from: 'v1', to: 'v1', how: 'unchanged' }),
    ]);
    expect(outcome.report.files).toEqual([expect.objectContaining({ changed: false })]);
    expect(outcome.stdout).toBe(user);
  });

  it('rejects flags that do not fit manifests before reading any file', () => {
    const base = {
      to: 'v1api',
      filename: ['x.yaml'],
      recursive: false,
      write: false,
      diff: false,
      'allow-loss': false,
    };
    expect(() => manifestOptionsOf({ ...base, write: true, 'output-dir': 'out' })).toThrow(UsageError);
    expect(() => manifestOptionsOf({ ...base, kind: ['FlexibleServer'] })).toThrow(
      /--kind act on the cluster/,
    );
    expect(() => manifestOptionsOf({ ...base, to: 'v1gamma' })).toThrow(UsageError);
  });

  it('rejects manifest-only flags on a cluster run', () => {
    const cluster = {
      to: 'v1api',
      strategy: 'auto' as const,
      'batch-size': 500,
      concurrency: 8,
      'dry-run': false,
      restart: false,
    };
    expect(() => migrateOptionsOf({ ...cluster, write: true }, 'default')).toThrow(
      '--write only apply to -f manifests',
    );
    expect(() => migrateOptionsOf({ ...cluster, 'allow-loss': true, recursive: true }, 'default')).toThrow(
      UsageError,
    );
    expect(() => migrateOptionsOf({ ...cluster, 'keep-going': true }, 'default')).toThrow(
      '--keep-going only apply to -f manifests',
    );
    expect(migrateOptionsOf({ ...cluster, write: false }, 'default').targetText).toBe('v1api');
  });

  it('refuses --write to stdin', async () => {
    await expect(
      run({ filename: ['-'], to: 'v1api', write: true }, noCluster(), alphaServer),
    ).rejects.toBeInstanceOf(UsageError);
  });
});

/**
 * A kind the catalog lacks: every kind of v2.20.0 is in it, so this stands for a kind of a newer operator
 * release, served by a cluster whose CRD for it is the real backends' CRD.
 */
const newerKind = 'BackendOfANewerRelease';
const backend = `apiVersion: apimanagement.azure.com/v1api20220801
kind: ${newerKind}
metadata:
  name: orders-backend
spec:
  owner:
    name: orders-apim
  protocol: http
  url: https://orders.example.com/api
  title: Orders
`;

/** The real CRDs, with the newer release's kind served as the real backends' CRD. */
function withNewerKind(real: CrdSchemas): CrdSchemas {
  return { lookup: (group, kind) => real.lookup(group, kind === newerKind ? 'Backend' : kind) };
}

describe('migrate -f without a cluster, on a key the schemas lack', () => {
  it('carries it, and names it as one ASO v2.20.0 does not have at the target', async () => {
    const misspelt = alphaServer
      .replace('v1alpha1api20210601 # the era before v1beta', 'v1api20210601')
      .replace('  storage:\n', '  Storage:\n    storageSizeGB: 64\n  storage:\n');
    const outcome = await run({ filename: [put('db.yaml', misspelt)], to: 'v1api20221201' });
    expect(outcome.report.objects).toMatchObject([
      { how: 'converted', carried: ['spec.Storage'], verified: false },
    ]);
    expect(outcome.report.warnings).toEqual([
      expect.stringContaining(
        'spec.Storage carried over to v1api20221201 UNVERIFIED (carried over unchecked: no cluster to check against',
      ),
    ]);
    expect(outcome.report.warnings[0]).toContain("ASO v2.20.0's v1api20221201 has no spec.Storage: ");
  });
});

describe.skipIf(!realCrds.present)('migrate -f against the real v2.20.0 CRDs', () => {
  it('renames a kind the catalog lacks within its ARM date, checked against the CRD', async () => {
    const file = put('backend.yaml', backend);
    const outcome = await run({ filename: [file], to: 'v' }, withNewerKind(crdSchemasFromDir(realCrds.path)));
    expect(documents(outcome.stdout)).toEqual([
      { ...documents(backend)[0], apiVersion: 'apimanagement.azure.com/v20220801' },
    ]);
    expect(outcome.report.objects).toMatchObject([{ how: 'renamed', to: 'v20220801', verified: true }]);
    expect(outcome.report.warnings).toEqual([]);
  });

  it('refuses a rename that would carry a field the target version lacks, naming it', async () => {
    const file = put('backend.yaml', backend.replace('  owner:', '  policyTier: premium\n  owner:'));
    await expect(
      run({ filename: [file], to: 'v' }, withNewerKind(crdSchemasFromDir(realCrds.path))),
    ).rejects.toThrow(/BackendOfANewerRelease\/orders-backend: v20220801 cannot hold spec\.policyTier/);
  });

  it('marks a rename unverified when no cluster is reachable', async () => {
    const outcome = await run({ filename: [put('backend.yaml', backend)], to: 'v' });
    expect(outcome.report.objects).toMatchObject([{ how: 'renamed', verified: false }]);
    expect(outcome.report.warnings).toEqual([
      expect.stringMatching(/renamed v1api20220801 -> v20220801 UNVERIFIED \(not checked: no cluster/),
    ]);
  });

  it('carries a property the catalog does not model to the target, checked against its CRD schema', async () => {
    // The generated FlexibleServer now models every path of the operator v2.20.0's CRD, so the cluster's CRD
    // stands for a newer operator release: the real one with one property added to the secret destination
    // at every version, which the catalog does not model.
    const carried = 'spec.operatorSpec.secrets.fullyQualifiedDomainName.addedByANewerRelease';
    const server = alphaServer
      .replace('v1alpha1api20210601 # the era before v1beta', 'v1api20210601')
      .replace(
        '  administratorLogin: orders\n',
        '  administratorLogin: orders\n  operatorSpec:\n    secrets:\n      fullyQualifiedDomainName:\n        name: orders-db\n        key: host\n        addedByANewerRelease: {team: orders} # for the reflector\n',
      );
    const real = crdSchemasFromDir(realCrds.path);
    const schemas: CrdSchemas = {
      async lookup(group, kind) {
        const found = structuredClone(await real.lookup(group, kind));
        for (const version of 'versions' in found ? found.versions : []) {
          const destination =
            version.schema?.openAPIV3Schema?.properties?.spec?.properties?.operatorSpec?.properties?.secrets
              ?.properties?.fullyQualifiedDomainName;
          if (destination?.properties) {
            destination.properties.addedByANewerRelease = {
              type: 'object',
              additionalProperties: { type: 'string' },
            };
          }
        }
        return found;
      },
    };
    const outcome = await run({ filename: [put('db.yaml', server)], to: 'v1api20221201' }, schemas);
    const [converted] = documents(outcome.stdout) as [
      { spec: { operatorSpec?: { secrets?: Record<string, unknown> } } },
    ];
    expect(converted.spec.operatorSpec?.secrets?.fullyQualifiedDomainName).toEqual({
      name: 'orders-db',
      key: 'host',
      addedByANewerRelease: { team: 'orders' },
    });
    expect(outcome.stdout).toContain('addedByANewerRelease: {team: orders} # for the reflector');
    expect(outcome.report.objects).toMatchObject([
      { how: 'converted', to: 'v1api20221201', carried: [carried], verified: true },
    ]);
    const unchecked = await run({ filename: [put('db2.yaml', server)], to: 'v1api20221201' });
    expect(unchecked.report.warnings).toEqual([
      expect.stringContaining(`${carried} carried over to v1api20221201 UNVERIFIED`),
    ]);
    // Without a cluster the generated CRD still says the release kubectl-aso knows has no such property.
    expect(unchecked.report.warnings[0]).toContain(
      `ASO v2.20.0's v1api20221201 has no ${carried}: a newer release's property, or a misspelling the API server drops`,
    );
  });
});

/** Sample folders holding catalogued kinds at versions older than the catalog's newest v1api. */
const sampleFolders = [
  'dbforpostgresql/v1api20210601',
  'dbforpostgresql/v1api20221201',
  'storage/v1api20210401',
  'resources/v1api',
  'authorization/v1api20200801preview',
];

describe.skipIf(!samples.present || !realCrds.present)('migrate -f over the operator v2.20.0 samples', () => {
  it('moves every catalogued sample to v1api in place, meaning the same at the hub, comments and other files kept', async () => {
    for (const folder of sampleFolders)
      cpSync(join(samples.path, folder), join(dir, 'tree', folder), { recursive: true });
    const files = readdirSync(join(dir, 'tree'), { recursive: true, encoding: 'utf8' })
      .map((name) => join(dir, 'tree', name))
      .filter((file) => file.endsWith('.yaml'));
    const before = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
    const crds = crdSchemasFromDir(realCrds.path);
    const outcome = await run(
      { filename: [join(dir, 'tree')], recursive: true, to: 'v1api', write: true },
      crds,
    );

    const converted = outcome.report.objects.filter((object) => object.how === 'converted');
    const groupsInTree = new Set(
      [...before.values()].flatMap((text) => [...text.matchAll(/apiVersion: ([a-z.]+)\//g)].map((m) => m[1])),
    );
    // ResourceGroup stays: the operator serves no v1api version of it newer than the samples' v1api20200601
    // (the catalog's v1api20210401 is one it does not serve).
    expect(new Set(converted.map((object) => object.kind))).toEqual(
      new Set([
        'FlexibleServer',
        'FlexibleServersDatabase',
        'FlexibleServersFirewallRule',
        // In the core since PostgreSQL's other kinds joined it.
        'FlexibleServersConfiguration',
        'StorageAccount',
        'StorageAccountsBlobService',
        'StorageAccountsBlobServicesContainer',
        // In the core since storage's queue services joined it (stop 33).
        'StorageAccountsQueueService',
        'StorageAccountsQueueServicesQueue',
        // In the core since storage's management policies joined it (stop 37).
        'StorageAccountsManagementPolicy',
        'RoleAssignment',
        // The authorization samples' refs hold a v1api20181130 identity; v1api20230131 is the newest.
        'UserAssignedIdentity',
      ]),
    );
    for (const object of converted) {
      // By the kind, not the sample's folder: a folder's refs hold kinds of other groups. A kind name can be
      // in two groups (MySQL's FlexibleServersDatabase and PostgreSQL's): the one the samples use.
      const group =
        Object.keys(registry.groups).find((g) => registry.groups[g]?.[object.kind] && groupsInTree.has(g)) ??
        '';
      const served = await crds.lookup(group, object.kind);
      expect('versions' in served && served.versions.map((version) => version.name)).toContain(object.to);
    }
    expect(converted.find((object) => object.kind === 'FlexibleServer')).toMatchObject({
      // Its administratorLoginPassword is a secret reference the generated versions model: converted, not carried.
      to: 'v1api20240801',
      carried: [],
    });
    let compared = 0;
    for (const [file, text] of before) {
      const after = readFileSync(file, 'utf8');
      const changed = outcome.report.files.find((entry) => entry.file === file)?.changed;
      expect(changed, relative(dir, file)).toBe(after !== text);
      if (after === text) continue;
      for (const comment of text.split('\n').filter((line) => /^\s*#/.test(line)))
        expect(after).toContain(comment);
      const [was, now] = [documents(text), documents(after)];
      for (const [i, object] of was.entries()) {
        const group = String(object.apiVersion).split('/')[0] as string;
        if (!registry.groups[group]?.[String(object.kind)]) continue;
        expect(String(now[i]?.apiVersion)).toMatch(/\/v1api\d{8}$/);
        expect(atHub(now[i] as Record<string, unknown>), `${relative(dir, file)} #${i + 1}`).toEqual(
          atHub(object),
        );
        compared += 1;
      }
    }
    expect(compared).toBe(converted.length);
  });
});
