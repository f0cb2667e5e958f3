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
