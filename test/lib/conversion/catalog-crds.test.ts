import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { catalog, kindsWithoutArm } from '../../../generated/catalog.ts';
import { generatedCrdFileNames, generatedCrdYaml } from '../../fixtures/generated-crd-files.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const realCrds = sharedData('real-aso-crds', 'test/lib/conversion/catalog-crds.test.ts (version names)');
const realDir = realCrds.path;

interface Crd {
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string };
    conversion: {
      strategy: string;
      webhook: { clientConfig: { url: string }; conversionReviewVersions: string[] };
    };
    versions: Array<{
      name: string;
      served: boolean;
      storage: boolean;
      subresources: unknown;
      additionalPrinterColumns: Array<{ name: string }>;
      schema: { openAPIV3Schema: { properties: Record<string, unknown> } };
    }>;
  };
}

const crds: Crd[] = generatedCrdFileNames().map((f) => parse(generatedCrdYaml(f) ?? '') as Crd);

describe('the resource catalog', () => {
  it('knows scope, owners, versions, hub and immutable properties of each kind', () => {
    const rg = catalog.find((e) => e.kind === 'ResourceGroup')!;
    expect(rg).toMatchObject({
      armType: 'Microsoft.Resources/resourceGroups',
      scope: 'subscription',
      owners: [],
      hub: 'v1api20200601storage',
    });
    expect(rg.immutable.v1api20200601).toContain('spec.location');
    expect(rg.immutable.v1api20200601).toContain('spec.azureName');
    expect(rg.immutable.v1api20200601).not.toContain('spec.owner');
    for (const entry of catalog.filter((e) => e.kind !== 'ResourceGroup')) {
      for (const paths of Object.values(entry.immutable)) {
        // A kind with a fixed name (a blob service's `default`) has no azureName to change; a tenant's
        // (a subscription alias) no owner.
        const owned = entry.owners === 'any' || entry.owners.length > 0;
        expect(paths).toEqual(
          expect.arrayContaining([
            ...(entry.fixedName ? [] : ['spec.azureName']),
            ...(owned ? ['spec.owner'] : []),
          ]),
        );
        if (!owned) expect(paths).not.toContain('spec.owner');
        if (entry.fixedName) expect(paths).not.toContain('spec.azureName');
      }
    }
    expect(catalog.find((e) => e.kind === 'StorageAccountsBlobService')?.fixedName).toBe('default');
    // Only kinds whose ARM URI ends in a fixed name have one.
    for (const entry of catalog.filter((e) => e.fixedName))
      expect(entry.fixedName, entry.kind).toMatch(/^[A-Za-z]+$/);
    expect(catalog.filter((e) => e.fixedName).map((e) => e.kind)).toContain('StorageAccountsBlobService');
    // A oneOf root (Kusto's Database) has its name on the root, as the operator has it; its leaf's location is immutable too.
    const kustoDb = catalog.find((e) => e.group === 'kusto.azure.com' && e.kind === 'Database')!;
    expect(Object.values(kustoDb.immutable)[0]).toEqual(
      expect.arrayContaining(['spec.azureName', 'spec.owner', 'spec.readWriteDatabase.location']),
    );
    expect(catalog.find((e) => e.kind === 'RoleAssignment')).toMatchObject({
      scope: 'extension',
      owners: 'any',
    });
    const db = catalog.find(
      (e) => e.group === 'dbforpostgresql.azure.com' && e.kind === 'FlexibleServersDatabase',
    )!;
    expect(db.owners).toEqual([{ group: 'dbforpostgresql.azure.com', kind: 'FlexibleServer' }]);
    expect(db.versions.map((v) => v.version)).toEqual([
      'v1api20220120preview',
      'v1api20230601preview',
      'v1alpha1api20210601',
      'v1beta20210601',
      'v1api20210601',
      'v1api20221201',
      'v1api20240801',
      'v20250801',
    ]);
    expect(db.hub).toBe('v20250801storage');
    expect(
      catalog.find((e) => e.group === 'dbforpostgresql.azure.com' && e.kind === 'FlexibleServer')!.immutable
        .v1api20210601,
    ).toEqual(
      expect.arrayContaining([
        'spec.location',
        'spec.administratorLogin',
        'spec.backup.geoRedundantBackup',
        'spec.network.delegatedSubnetResourceReference',
      ]),
    );
  });
});

describe('the generated CRDs', () => {
  it('has one CRD per catalog kind, the hub as the only storage version, every version served', () => {
    const withoutArm = (crd: (typeof crds)[number]) =>
      kindsWithoutArm.find((k) => k.group === crd.spec.group && k.kind === crd.spec.names.kind);
    expect(
      crds
        .filter((c) => !withoutArm(c))
        .map((c) => c.spec.names.kind)
        .sort(),
    ).toEqual(catalog.map((e) => e.kind).sort());
    for (const crd of crds.filter((c) => !withoutArm(c))) {
      const entry = catalog.find((e) => e.group === crd.spec.group && e.kind === crd.spec.names.kind)!;
      expect(crd.spec.versions.filter((v) => v.storage).map((v) => v.name)).toEqual([entry.hub]);
      expect(crd.spec.versions.every((v) => v.served && v.subresources !== undefined)).toBe(true);
      expect(crd.metadata.labels['app.kubernetes.io/name']).toBe('azure-service-operator');
      expect(crd.spec.conversion).toMatchObject({
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v1'] },
      });
      for (const v of crd.spec.versions) {
        expect(v.additionalPrinterColumns.map((c) => c.name)).toEqual([
          'Ready',
          'Severity',
          'Reason',
          'Message',
        ]);
      }
    }
  });

  it('has one CRD per kind managed without ARM: its one version served and stored, with no conversion to call', () => {
    const withoutArm = crds.filter((c) =>
      kindsWithoutArm.some((k) => k.group === c.spec.group && k.kind === c.spec.names.kind),
    );
    expect(withoutArm.map((c) => `${c.spec.names.kind}.${c.spec.group}`).sort()).toEqual(
      kindsWithoutArm.map((k) => `${k.kind}.${k.group}`).sort(),
    );
    expect(kindsWithoutArm.length).toBeGreaterThan(0);
    for (const crd of withoutArm) {
      expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1', true, true]]);
      expect(crd.spec.conversion).toBeUndefined();
      expect(crd.spec.versions[0]?.additionalPrinterColumns.map((c) => c.name)).toEqual([
        'Ready',
        'Severity',
        'Reason',
        'Message',
      ]);
    }
  });

  it("declares a property bag only where the operator does: on storage variants' generated objects", () => {
    // Not on API versions, not on the operator's runtime types (owner, references, conditions, destinations).
    const bag = { type: 'object', additionalProperties: { type: 'string' } };
    const objects = (node: unknown, at: string, out: [string, Record<string, unknown>][]) => {
      if (typeof node !== 'object' || node === null) return out;
      const o = node as Record<string, unknown>;
      if (o.type === 'object' && typeof o.properties === 'object') out.push([at, o]);
      for (const [k, v] of Object.entries(o.properties ?? {})) objects(v, `${at}.${k}`, out);
      if (o.items) objects(o.items, `${at}[]`, out);
      return out;
    };
    const runtime =
      /(\.owner|\.conditions\[\]|Reference|\.reference|FromConfig|Expressions\[\]|\.(configMaps|secrets)\.\w+|administratorLoginPassword)$/;
    const fs = crds.find(
      (c) => c.spec.group === 'dbforpostgresql.azure.com' && c.spec.names.kind === 'FlexibleServer',
    )!;
    for (const name of ['v1api20210601', 'v1alpha1api20210601', 'v20250801storage', 'v1api20210601storage']) {
      const version = fs.spec.versions.find((v) => v.name === name)!;
      const { spec, status } = version.schema.openAPIV3Schema.properties;
      const found = [...objects(spec, 'spec', []), ...objects(status, 'status', [])];
      expect(found.length).toBeGreaterThan(5);
      const storage = name.endsWith('storage');
      for (const [at, o] of found) {
        const declared = (o.properties as Record<string, unknown>).$propertyBag;
        expect(declared, `${name} ${at}`).toEqual(storage && !runtime.test(at) ? bag : undefined);
      }
    }
  });

  it.runIf(realCrds.present)(
    'serves every version the real operator CRDs serve, under the same names',
    () => {
      const real = (file: string) =>
        parseAllDocuments(readFileSync(join(realDir, file), 'utf8'))
          .map((d) => d.toJS() as Crd)
          .find((d) => d?.spec)!
          .spec.versions.map((v) => v.name);
      // MySQL's kinds bear the same names as PostgreSQL's: a kind is found within its group.
      const ours = (kind: string, group = 'dbforpostgresql.azure.com') =>
        crds
          .find((c) => c.spec.group === group && c.spec.names.kind === kind)!
          .spec.versions.map((v) => v.name);
      expect(ours('ResourceGroup', 'resources.azure.com')).toEqual(
        expect.arrayContaining(real('resources.azure.com_resourcegroups.yaml')),
      );
      for (const [kind, file] of [
        ['FlexibleServersDatabase', 'dbforpostgresql.azure.com_flexibleserversdatabases.yaml'],
        ['FlexibleServersFirewallRule', 'dbforpostgresql.azure.com_flexibleserversfirewallrules.yaml'],
      ] as const) {
        // Every version the operator serves, its previews included.
        expect(real(file)).toContain('v1api20230601previewstorage');
        expect(ours(kind)).toEqual(expect.arrayContaining(real(file)));
      }
    },
  );
});
