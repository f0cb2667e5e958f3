import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupOf, kindOf, pluralOf } from '../../src/codegen/model/names.ts';
import { compareVersions, versionName } from '../../src/codegen/model/versions.ts';
import { graphOf } from '../../src/codegen/stages/build-conversion-graph.ts';
import { realCrdVersions } from '../fixtures/real-crd-versions.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const prefixes = { ga: 'v1api', plain: 'v', beta: 'v1beta', alpha: 'v1alpha1api' };

describe('version names and order, as the operator has them', () => {
  it('names packages after the ARM API version', () => {
    expect(versionName(prefixes, 'ga', '2021-06-01')).toBe('v1api20210601');
    expect(versionName(prefixes, 'beta', '2021-06-01')).toBe('v1beta20210601');
    expect(versionName(prefixes, 'alpha', '2021-06-01')).toBe('v1alpha1api20210601');
    expect(versionName(prefixes, 'ga', '2023-02-02-preview')).toBe('v1api20230202preview');
    expect(versionName(prefixes, 'plain', '2025-08-01')).toBe('v20250801');
  });

  it('orders: preview < non-preview; v1alpha1api < v1beta < v1api; older < newer date; v1api < plain', () => {
    const shuffled = [
      'v20210601',
      'v1api20230601',
      'v1beta20230601',
      'v1api20250101preview',
      'v1alpha1api20240101',
      'v1api20210601',
    ];
    expect([...shuffled].sort(compareVersions)).toEqual([
      'v1api20250101preview',
      'v1alpha1api20240101',
      'v1beta20230601',
      'v1api20210601',
      'v20210601',
      'v1api20230601',
    ]);
  });

  it('names kinds and groups as ASO does', () => {
    expect(kindOf('flexibleServers/databases')).toBe('FlexibleServersDatabase');
    expect(kindOf('storageAccounts/blobServices/containers')).toBe('StorageAccountsBlobServicesContainer');
    expect(kindOf('resourceGroups')).toBe('ResourceGroup');
    expect(groupOf('Microsoft.DBforPostgreSQL')).toBe('dbforpostgresql');
    expect(pluralOf('FlexibleServersDatabase')).toBe('flexibleserversdatabases');
  });

  it('chains storage versions to the newest non-preview one, each preview joining the stable version before it (the first, if none is older), as the operator links them', () => {
    const graph = graphOf('g', 'K', [
      'v1api20200101preview',
      'v1api20210101',
      'v1api20220101preview',
      'v1api20230101',
      'v1api20240101preview',
    ]);
    expect(graph.hub).toBe('v1api20230101storage');
    expect(Object.fromEntries(graph.next)).toEqual({
      v1api20210101storage: 'v1api20230101storage',
      v1api20200101previewstorage: 'v1api20210101storage',
      v1api20220101previewstorage: 'v1api20210101storage',
      v1api20240101previewstorage: 'v1api20230101storage',
    });
  });
});

describe('the plain v prefix', () => {
  it('makes the plain version the hub over v1api at the same date, as the operator stores PostgreSQL', () => {
    const graph = graphOf('dbforpostgresql', 'FlexibleServer', [
      'v1api20240801',
      'v20250801',
      'v1api20230601preview',
      'v1api20210601',
    ]);
    expect(graph.hub).toBe('v20250801storage');
    expect(graph.apiVersions).toEqual([
      'v1api20230601preview',
      'v1api20210601',
      'v1api20240801',
      'v20250801',
    ]);
  });

  it('chains v1api then plain at each date when both are published, the newest plain one the hub', () => {
    const graph = graphOf('storage', 'StorageAccount', [
      'v20210401',
      'v1api20210401',
      'v20250601',
      'v1api20230101',
      'v20230101',
    ]);
    expect(graph.hub).toBe('v20250601storage');
    expect(Object.fromEntries(graph.next)).toEqual({
      v1api20210401storage: 'v20210401storage',
      v20210401storage: 'v1api20230101storage',
      v1api20230101storage: 'v20230101storage',
      v20230101storage: 'v20250601storage',
    });
  });
});

const real = sharedData('real-aso-crds', 'test/codegen/versions.test.ts (real version names)');

describe('the generator against every real CRD', () => {
  for (const release of ['v2.20.0', 'v2.18.0']) {
    it.runIf(real.present)(`makes the operator's storage version the hub of each ${release} CRD`, () => {
      const crds = realCrdVersions(join(real.path, release));
      // Versions without a storage variant (the hand-written `v1` kinds such as MySQL User) are not chained.
      const chained = crds.filter((c) => c.names.some((n) => n.endsWith('storage')));
      expect(chained.length).toBeGreaterThan(250);
      const wrong = chained.flatMap((c) => {
        const hub = graphOf(
          c.group,
          c.kind,
          c.names.filter((n) => !n.endsWith('storage')),
        ).hub;
        return hub === c.storage ? [] : [`${c.file}: hub ${hub}, operator stores ${c.storage}`];
      });
      expect(wrong).toEqual([]);
      expect(crds.filter((c) => !chained.includes(c)).map((c) => c.names)).toEqual(
        crds.filter((c) => !chained.includes(c)).map(() => ['v1']),
      );
    });
  }
});

describe('the storage chain', () => {
  it('fails clearly when ARM dates decrease toward the hub', () => {
    expect(() =>
      graphOf('dbforpostgresql', 'FlexibleServer', ['v1alpha1api20230101', 'v1api20210601']),
    ).toThrow(
      'dbforpostgresql/FlexibleServer: the storage chain toward the hub goes back in time: v1alpha1api20230101storage (ARM 2023-01-01) converts up to v1api20210601storage (ARM 2021-06-01)',
    );
    expect(() =>
      graphOf('dbforpostgresql', 'FlexibleServer', [
        'v1alpha1api20210601',
        'v1beta20210601',
        'v1api20210601',
      ]),
    ).not.toThrow();
  });
});
