import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/lib/conversion/convert.ts';
import { canonicalEnum, enumSpellings } from '../../../src/lib/conversion/enum-spelling.ts';

/**
 * Enum spelling as the operator gives it: ASO's generated AssignProperties_From_* (storage -> API version)
 * passes every string enum through genruntime.ToEnum, a case-insensitive lookup among the API version's
 * values that leaves an unknown value as it is; the way into storage copies the plain string.
 */
const account = (version: string, spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  apiVersion: `storage.azure.com/${version}`,
  kind: 'StorageAccount',
  metadata: { name: 'sa', namespace: 'default' },
  spec: { owner: { name: 'rg' }, location: 'westeurope', ...spec },
  ...(status ? { status } : {}),
});

describe('enum spelling on the way to an API version', () => {
  it('gives a spec value matching case-insensitively its declared spelling', () => {
    const api = convert(
      account('v1api20230101storage', { accessTier: 'hot', kind: 'storagev2' }),
      'v1api20230101',
    );
    expect(api.spec).toMatchObject({ accessTier: 'Hot', kind: 'StorageV2' });
  });

  it('does the same for status, nested objects and arrays of enums', () => {
    const stored = account(
      'v1api20230101storage',
      { sku: { name: 'standard_lrs' } },
      { accessTier: 'cool', provisioningState: 'succeeded' },
    );
    const api = convert(stored, 'v1api20230101');
    expect(api.spec).toMatchObject({ sku: { name: 'Standard_LRS' } });
    expect(api.status).toMatchObject({ accessTier: 'Cool', provisioningState: 'Succeeded' });
  });

  it('passes a value outside the enum through unchanged', () => {
    const api = convert(account('v1api20230101storage', { accessTier: 'Glacial' }), 'v1api20230101');
    expect(api.spec).toMatchObject({ accessTier: 'Glacial' });
  });

  it('leaves the spelling alone on the way into storage', () => {
    const stored = convert(account('v1api20230101', { accessTier: 'hot' }), 'v1api20230101storage');
    expect(stored.spec).toMatchObject({ accessTier: 'hot' });
  });

  it('applies at the far end of a multi-hop conversion between API versions', () => {
    const newer = convert(account('v1api20210401', { accessTier: 'HOT' }), 'v1api20230101');
    expect(newer.spec).toMatchObject({ accessTier: 'Hot' });
  });
});

describe('canonicalEnum', () => {
  it('keeps the first declared spelling of a lower-case form', () => {
    const spellings = enumSpellings(['Hot', 'HOT', 'Cool']);
    expect(canonicalEnum('hOt', spellings)).toBe('Hot');
    expect(canonicalEnum('cool', spellings)).toBe('Cool');
    expect(canonicalEnum('', spellings)).toBe('');
  });
});
