import { describe, expect, it } from 'vitest';
import { groupOf, kindOf, pluralOf } from '../../src/codegen/model/names.ts';
import { compareVersions, versionName } from '../../src/codegen/model/versions.ts';
import { graphOf } from '../../src/codegen/stages/build-conversion-graph.ts';

const prefixes = { ga: 'v1api', beta: 'v1beta', alpha: 'v1alpha1api' };

describe('version names and order, as the operator has them', () => {
  it('names packages after the ARM API version', () => {
    expect(versionName(prefixes, 'ga', '2021-06-01')).toBe('v1api20210601');
    expect(versionName(prefixes, 'beta', '2021-06-01')).toBe('v1beta20210601');
    expect(versionName(prefixes, 'alpha', '2021-06-01')).toBe('v1alpha1api20210601');
    expect(versionName(prefixes, 'ga', '2023-02-02-preview')).toBe('v1api20230202preview');
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

  it('chains storage versions to the newest non-preview one, previews joining the chain after them in time', () => {
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
      v1api20220101previewstorage: 'v1api20230101storage',
      v1api20240101previewstorage: 'v1api20230101storage',
    });
  });
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
