import { beforeAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/lib/conversion/convert.ts';
import {
  convertWithOperator,
  goToolchain,
  operatorConversionBinaries,
} from '../fixtures/operator-conversion.ts';

const go = goToolchain('test/differential/operator-facts.test.ts');
const group = 'storage.azure.com';

/**
 * What Azure Service Operator v2.20.0's conversions do, observed through its own webhook handler, each next to
 * whether kubectl-aso's convert() does the same. A fact test states the operator's behaviour; where ours
 * differs, the matching test is marked `.fails` with the issue item that will fix it.
 */
const account = (version: string, spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  apiVersion: `${group}/${version}`,
  kind: 'StorageAccount',
  metadata: { name: 'facts', namespace: 'default' },
  spec: { owner: { name: 'rg' }, location: 'westeurope', ...spec },
  ...(status ? { status } : {}),
});

async function operator(object: unknown, version: string): Promise<Record<string, Record<string, unknown>>> {
  const [result] = await convertWithOperator([object], `${group}/${version}`);
  if (!result || 'error' in result) throw new Error(`the operator refused: ${result?.error}`);
  return result.object as Record<string, Record<string, unknown>>;
}

async function operatorError(object: unknown, version: string): Promise<string> {
  const [result] = await convertWithOperator([object], `${group}/${version}`);
  if (!result || !('error' in result)) throw new Error('the operator converted');
  return result.error;
}

describe.skipIf(!go.present)('the operator converts StorageAccount (facts convert() must match)', () => {
  beforeAll(async () => {
    await operatorConversionBinaries([group]);
  }, 1_800_000);

  const newer = account('v1api20220901', {
    allowedCopyScope: 'AAD',
    dnsEndpointType: 'Standard',
    isSftpEnabled: true,
    immutableStorageWithVersioning: { enabled: true },
  });
  const bag = {
    AllowedCopyScope: 'AAD',
    DnsEndpointType: 'Standard',
    IsSftpEnabled: 'true',
    ImmutableStorageWithVersioning: '{"enabled":true}',
  };

  it('operator: a property the target storage version lacks goes to $propertyBag under its Go name, a string raw and any other value as JSON text', async () => {
    const older = await operator(newer, 'v1api20210401storage');
    expect(older.spec?.$propertyBag).toEqual(bag);
    expect(older.spec).not.toHaveProperty('allowedCopyScope');
  });

  it('convert() writes the same bag entries', async () => {
    const ours = convert(newer, 'v1api20210401storage').spec as Record<string, unknown>;
    expect(ours.$propertyBag).toMatchObject(bag);
  });

  it('operator: a bag it wrote is recalled into the typed properties at a version that has them', async () => {
    const back = await operator(await operator(newer, 'v1api20210401storage'), 'v1api20220901');
    expect(back.spec).toMatchObject(newer.spec);
    expect(back.spec).not.toHaveProperty('$propertyBag');
  });

  it('convert() recalls the bag the operator wrote into the same typed properties', async () => {
    const ours = convert(await operator(newer, 'v1api20210401storage'), 'v1api20220901').spec;
    // With the operator's 2022-09-01 schema imported, every entry is typed, as the operator types it.
    expect(ours).toMatchObject(newer.spec as Record<string, unknown>);
    expect(ours).not.toHaveProperty('$propertyBag');
  });

  it('operator: an API version has no $propertyBag, so what it cannot type is dropped on the way to it', async () => {
    const stored = account('v1api20210401storage', { $propertyBag: { AllowedCopyScope: 'AAD', Zzz: '1' } });
    const api = await operator(stored, 'v1api20210401');
    expect(api.spec).not.toHaveProperty('$propertyBag');
    expect(api.spec).not.toHaveProperty('allowedCopyScope');
  });

  it('operator: a malformed bag entry fails the whole conversion (Pull decodes it strictly)', async () => {
    const stored = account('v1api20210401storage', { $propertyBag: { IsSftpEnabled: 'not json' } });
    expect(await operatorError(stored, 'v1api20220901')).toMatch(/pulling 'IsSftpEnabled' from propertyBag/);
  });

  const lower = account(
    'v1api20210401storage',
    { accessTier: 'hot', kind: 'storagev2', minimumTlsVersion: 'tls1_2' },
    { provisioningState: 'creating', accessTier: 'cool' },
  );
  const canonical = {
    spec: { accessTier: 'Hot', kind: 'StorageV2', minimumTlsVersion: 'TLS1_2' },
    status: { provisioningState: 'Creating', accessTier: 'Cool' },
  };

  it('operator: an enum value takes its canonical spelling on the way to an API version (case-insensitive), in spec and status', async () => {
    const api = await operator(lower, 'v1api20220901');
    expect(api.spec).toMatchObject(canonical.spec);
    expect(api.status).toMatchObject(canonical.status);
  });

  it('convert() canonicalises enum values on the way to an API version, as the operator does', () => {
    const api = convert(lower, 'v1api20220901');
    expect(api.spec).toMatchObject(canonical.spec);
    expect(api.status).toMatchObject(canonical.status);
  });

  it('operator: an enum value no spelling matches passes through unchanged', async () => {
    const odd = account(
      'v1api20210401storage',
      { accessTier: 'Lukewarm' },
      { provisioningState: 'Sleeping' },
    );
    const api = await operator(odd, 'v1api20220901');
    expect(api.spec?.accessTier).toBe('Lukewarm');
    expect(api.status?.provisioningState).toBe('Sleeping');
    const ours = convert(odd, 'v1api20220901');
    expect((ours.spec as Record<string, unknown>).accessTier).toBe('Lukewarm');
  });

  it('operator: no canonical spelling on the way to a storage version, hub included (storage types are plain strings)', async () => {
    const api = account('v1api20220901', { accessTier: 'hot' }, { provisioningState: 'creating' });
    for (const version of ['v1api20220901storage', 'v1api20210401storage', 'v20250601storage']) {
      const stored = await operator(api, version);
      expect(stored.spec?.accessTier).toBe('hot');
      expect(stored.status?.provisioningState).toBe('creating');
    }
    const hop = await operator(lower, 'v1api20230101storage');
    expect(hop.spec?.accessTier).toBe('hot');
  });

  // Go's encoding/json escapes <, > and & (and U+2028, U+2029) inside strings; the text of a bag entry is
  // what a GitOps diff of a stored object shows, so it is compared as text here, not as the value it holds.
  const zoned = {
    ...account('v20250601', {}),
    spec: { ...account('v20250601', {}).spec, zones: ['a&b', '<c>', 'd\u2028e'] },
  };
  const zonesText = '["a\\u0026b","\\u003cc\\u003e","d\\u2028e"]';

  it("operator: a bag entry's JSON text escapes <, > and & as \\u003c, \\u003e and \\u0026", async () => {
    const older = await operator(zoned, 'v20230101storage');
    expect(older.spec?.$propertyBag).toMatchObject({ Zones: zonesText });
  });

  it('convert() writes the same text', () => {
    const ours = convert(zoned, 'v20230101storage').spec as { $propertyBag: Record<string, string> };
    expect(ours.$propertyBag.Zones).toBe(zonesText);
    expect(JSON.parse(ours.$propertyBag.Zones ?? '')).toEqual(['a&b', '<c>', 'd\u2028e']);
  });
});
