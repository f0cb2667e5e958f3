import { describe, expect, it } from 'vitest';
import {
  defaultOperatorGoDir,
  OperatorGoSource,
  OperatorGoSourceMissing,
} from '../../../src/codegen/import/operator-go.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';

const goModule = operatorGoModule('test/codegen/import/operator-go.test.ts');

describe("the operator's Go types, read for status enums", () => {
  it.runIf(goModule.present)(
    'finds the values of status enums at every depth, spelled as the generated _Values maps spell them',
    () => {
      const go = OperatorGoSource.at(goModule.path);
      if (!go) throw new Error('no Go source');
      const enums = go.statusEnums('storage', 'v20250601', 'StorageAccount');
      expect(enums.get('accessTier')).toEqual(['Cold', 'Cool', 'Hot', 'Premium']);
      // Lower case in ARM's own spelling, which the operator keeps.
      expect(enums.get('statusOfPrimary')).toEqual(['available', 'unavailable']);
      expect(enums.get('systemData.createdByType')).toEqual([
        'Application',
        'Key',
        'ManagedIdentity',
        'User',
      ]);
      expect(enums.get('networkAcls.virtualNetworkRules[].state')).toContain('Succeeded');
      // A string the operator does not type as an enum has no entry.
      expect(enums.has('primaryLocation')).toBe(false);
    },
  );

  it.runIf(goModule.present)(
    "finds a oneOf leaf's status enums under the status property holding it, by path within the leaf",
    () => {
      const go = OperatorGoSource.at(goModule.path);
      if (!go) throw new Error('no Go source');
      for (const version of ['v1api20230815', 'v1api20240413']) {
        const leaf = go.statusEnums('kusto', version, 'Database', 'readWrite');
        // ReadWriteDatabase_STATUS flattens ARM's `properties`, as the leaf's ARM body paths are written.
        expect(leaf.get('provisioningState')).toEqual([
          'Canceled',
          'Creating',
          'Deleting',
          'Failed',
          'Moving',
          'Running',
          'Succeeded',
        ]);
        expect(leaf.get('kind')).toEqual(['ReadWrite']);
        // The whole kind's walk has the same values one level down, under the leaf's property.
        const whole = go.statusEnums('kusto', version, 'Database');
        expect([...leaf.keys()].map((k) => `readWrite.${k}`).sort()).toEqual([...whole.keys()].sort());
      }
      expect(() => go.statusEnums('kusto', 'v1api20240413', 'Database', 'readOnlyFollowing')).toThrow(
        'Database_STATUS.readOnlyFollowing',
      );
    },
  );

  it.runIf(goModule.present)(
    "reads a kind's fixed ARM name from its Go AzureName(), and none where the spec names it",
    () => {
      const go = OperatorGoSource.at(goModule.path);
      if (!go) throw new Error('no Go source');
      for (const kind of ['Policy', 'ApiPolicy', 'ProductPolicy'])
        expect(go.fixedAzureName('apimanagement', 'v20240501', kind)).toBe('policy');
      expect(go.fixedAzureName('apimanagement', 'v20240501', 'Service')).toBeUndefined();
    },
  );

  it('is absent when the folder is not there, and names a missing package', () => {
    expect(OperatorGoSource.at('/nonexistent/aso')).toBeUndefined();
    if (!goModule.present) return;
    const go = OperatorGoSource.at(goModule.path);
    expect(() => go?.statusEnums('storage', 'v29990101', 'StorageAccount')).toThrow(OperatorGoSourceMissing);
    expect(() => go?.statusEnums('storage', 'v29990101', 'StorageAccount')).toThrow('api/storage/v29990101');
  });

  it('finds the module where the Go module cache keeps it', () => {
    expect(defaultOperatorGoDir('v2.20.0', { GOMODCACHE: '/cache' })).toBe(
      '/cache/github.com/!azure/azure-service-operator/v2@v2.20.0',
    );
    expect(defaultOperatorGoDir('v2.20.0', { GOPATH: '/gp' })).toBe(
      '/gp/pkg/mod/github.com/!azure/azure-service-operator/v2@v2.20.0',
    );
  });
});
