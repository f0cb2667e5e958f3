import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { catalog } from '../../../generated/catalog.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const root = new URL('../../..', import.meta.url).pathname;
const crdDir = join(root, 'generated/crds');
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

const crds: Crd[] = readdirSync(crdDir)
  .sort()
  .map((f) => parse(readFileSync(join(crdDir, f), 'utf8')) as Crd);

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
        // A kind with a fixed name (a blob service's `default`) has no azureName to change.
        expect(paths).toEqual(
          expect.arrayContaining(entry.fixedName ? ['spec.owner'] : ['spec.azureName', 'spec.owner']),
        );
        if (entry.fixedName) expect(paths).not.toContain('spec.azureName');
      }
    }
    expect(catalog.find((e) => e.kind === 'StorageAccountsBlobService')?.fixedName).toBe('default');
    expect(catalog.filter((e) => e.fixedName).map((e) => e.kind)).toEqual(['StorageAccountsBlobService']);
    // A oneOf root (Kusto's Database) has its name on the root, as the operator has it; its leaf's location is immutable too.
    const kustoDb = catalog.find((e) => e.kind === 'Database')!;
    expect(Object.values(kustoDb.immutable)[0]).toEqual(
      expect.arrayContaining(['spec.azureName', 'spec.owner', 'spec.readWriteDatabase.location']),
    );
    expect(catalog.find((e) => e.kind === 'RoleAssignment')).toMatchObject({
      scope: 'extension',
      owners: 'any',
    });
    const db = catalog.find((e) => e.kind === 'FlexibleServersDatabase')!;
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
    expect(catalog.find((e) => e.kind === 'FlexibleServer')!.immutable.v1api20210601).toEqual(
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
    expect(crds.map((c) => c.spec.names.kind).sort()).toEqual(catalog.map((e) => e.kind).sort());
    for (const crd of crds) {
      const entry = catalog.find((e) => e.kind === crd.spec.names.kind)!;
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

  it('declares a property bag (map of string to string) on every object of every version', () => {
    // API versions too: the API server prunes undeclared keys, and a conversion down to an API version
    // keeps what that version cannot type in `$propertyBag` (property-bag.ts).
    const bag = { type: 'object', additionalProperties: { type: 'string' } };
    const objects = (node: unknown, out: Record<string, unknown>[]): Record<string, unknown>[] => {
      if (Array.isArray(node)) for (const n of node) objects(n, out);
      else if (typeof node === 'object' && node !== null) {
        const o = node as Record<string, unknown>;
        if (o.type === 'object' && typeof o.properties === 'object') out.push(o);
        for (const v of Object.values(o)) objects(v, out);
      }
      return out;
    };
    const fs = crds.find((c) => c.spec.names.kind === 'FlexibleServer')!;
    for (const name of ['v1api20210601', 'v1alpha1api20210601', 'v20250801storage']) {
      const version = fs.spec.versions.find((v) => v.name === name)!;
      const { spec, status } = version.schema.openAPIV3Schema.properties;
      const found = objects([spec, status], []);
      expect(found.length).toBeGreaterThan(5);
      for (const o of found) expect((o.properties as Record<string, unknown>).$propertyBag).toEqual(bag);
    }
    const storage = fs.spec.versions.find((v) => v.name === 'v1api20210601')!.schema.openAPIV3Schema
      .properties.spec as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(storage.properties.storage?.properties?.$propertyBag).toEqual(bag);
  });

  it('makes owner.name and owner.armId mutually exclusive on every API version (CEL)', () => {
    for (const crd of crds.filter((c) => c.spec.names.kind !== 'ResourceGroup')) {
      for (const v of crd.spec.versions.filter((x) => !x.name.endsWith('storage'))) {
        const spec = v.schema.openAPIV3Schema.properties.spec as {
          properties: Record<string, { 'x-kubernetes-validations'?: Array<{ rule: string }> }>;
        };
        expect(spec.properties.owner?.['x-kubernetes-validations'], `${crd.metadata.name} ${v.name}`).toEqual(
          [expect.objectContaining({ rule: '!(has(self.name) && has(self.armId))' })],
        );
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
      const ours = (kind: string) =>
        crds.find((c) => c.spec.names.kind === kind)!.spec.versions.map((v) => v.name);
      expect(ours('ResourceGroup')).toEqual(
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
