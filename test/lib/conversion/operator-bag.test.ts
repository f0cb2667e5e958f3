import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/lib/conversion/convert.ts';

/**
 * Property bags in the operator's own format: the key is the Go property name and a string is stored raw,
 * anything else as JSON text. Checked against ASO's v2/pkg/genruntime/property_bag.go (Add and Pull).
 */
const account = (version: string, spec: Record<string, unknown>) => ({
  apiVersion: `storage.azure.com/${version}`,
  kind: 'StorageAccount',
  metadata: { name: 'sa', namespace: 'default' },
  spec: { owner: { name: 'rg' }, location: 'westeurope', ...spec },
});

describe('a property bag the operator wrote', () => {
  it('is recalled into the typed property at a version that has it', () => {
    const stored = account('v1api20210401storage', { $propertyBag: { AllowedCopyScope: 'AAD' } });
    const newer = convert(stored, 'v1api20220901');
    expect(newer.spec).toMatchObject({ allowedCopyScope: 'AAD' });
    expect(newer.spec).not.toHaveProperty('$propertyBag');
  });

  it('is what kubectl-aso writes on the way to a version that lacks the property', () => {
    const older = convert(account('v1api20220901', { allowedCopyScope: 'AAD' }), 'v1api20210401storage');
    expect((older.spec as { $propertyBag: Record<string, string> }).$propertyBag).toEqual({
      AllowedCopyScope: 'AAD',
    });
  });

  it('keeps an entry under a key no version knows in the bag', () => {
    const stored = account('v1api20210401storage', { $propertyBag: { Zzz: '1' } });
    const newer = convert(stored, 'v1api20220901storage');
    expect((newer.spec as { $propertyBag: Record<string, string> }).$propertyBag).toMatchObject({ Zzz: '1' });
  });
});
