import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { catalog } from '../../../generated/catalog.ts';

const root = new URL('../../..', import.meta.url).pathname;
const crdDir = join(root, 'generated/crds');
const realDir = join(root, '../shared/real-aso-crds');

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
      hub: 'v1api20210401storage',
    });
    expect(rg.immutable.v1api20200601).toContain('spec.location');
    expect(catalog.find((e) => e.kind === 'RoleAssignment')).toMatchObject({
      scope: 'extension',
      owners: 'any',
    });
    const db = catalog.find((e) => e.kind === 'FlexibleServersDatabase')!;
    expect(db.owners).toEqual([{ group: 'dbforpostgresql.azure.com', kind: 'FlexibleServer' }]);
    expect(db.versions.map((v) => v.version)).toEqual([
      'v1alpha1api20210601',
      'v1beta20210601',
      'v1api20210601',
      'v1api20221201',
      'v1api20230601',
    ]);
    expect(catalog.find((e) => e.kind === 'FlexibleServer')!.immutable.v1api20210601).toEqual(
      expect.arrayContaining([
        'spec.location',
        'spec.administratorLogin',
        'spec.backup.geoRedundantBackup',
        'spec.network.delegatedSubnetResourceId',
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

  it('gives storage variants a property bag and keeps it off API versions', () => {
    const rg = crds.find((c) => c.spec.names.kind === 'ResourceGroup')!;
    const storage = rg.spec.versions.find((v) => v.name === 'v1api20200601storage')!;
    const api = rg.spec.versions.find((v) => v.name === 'v1api20200601')!;
    expect(JSON.stringify(storage.schema.openAPIV3Schema.properties.spec)).toContain('$propertyBag');
    expect(JSON.stringify(api.schema.openAPIV3Schema.properties.spec)).not.toContain('$propertyBag');
  });

  it.runIf(existsSync(realDir))(
    'shares version names with the real operator CRDs where the ARM versions overlap',
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
        const shared = real(file).filter((v) => ours(kind).includes(v));
        expect(shared).toEqual([
          'v1api20210601',
          'v1api20210601storage',
          'v1api20221201',
          'v1api20221201storage',
        ]);
      }
    },
  );
});
