import { describe, expect, it } from 'vitest';
import { convert as convertDropping, convertKeepingLeftovers } from '../../../src/lib/conversion/convert.ts';

// These tests follow values through the bags of the whole chain, API versions at either end included. An API
// version has no bag (the operator drops what it cannot type there), so they convert keeping the leftovers,
// which shows every value where the bags carried it; the generated tests check that plain convert() leaves
// no bag at an API version.
const convert = convertKeepingLeftovers;

import { expectRoundTrip, typed } from '../../../src/testing/conversion-support.ts';

const server = (spec: Record<string, unknown>, version = 'v1api20210601') => ({
  apiVersion: `dbforpostgresql.azure.com/${version}`,
  kind: 'FlexibleServer',
  metadata: { name: 'pg', namespace: 'default' },
  spec: { owner: { name: 'rg' }, location: 'westeurope', ...spec },
});

const hub = 'v20250801storage';

/**
 * A v1api20210601 server as a round trip must return it: its spec (and storage) typed with the properties
 * these tests use, so that any other key is expected in the bag.
 */
const spoke = (object: ReturnType<typeof server>) => {
  const spec: Record<string, unknown> = { ...object.spec };
  if (typeof spec.storage === 'object' && spec.storage !== null)
    spec.storage = typed({ ...spec.storage }, ['storageSizeGB', '$propertyBag']);
  return { ...object, spec: typed(spec, ['owner', 'location', 'tags', 'storage', '$propertyBag']) };
};

describe('values recalled from the property bag', () => {
  it("keep a well-formed entry of another version's shape in the bag, where the operator's Pull refuses", () => {
    // AKS 2024-04-02-preview (a version v2.20.0 removed) has a list of autoscale profiles; 2025-08-01 has
    // none and bags it; 2025-10-02-preview has one profile, which the list cannot become. The operator's
    // conversion to 2025-10-02-preview fails (test/differential/removed-versions-vs-operator.test.ts).
    const pool = {
      apiVersion: 'containerservice.azure.com/v1api20240402preview',
      kind: 'ManagedClustersAgentPool',
      metadata: { name: 'pool', namespace: 'default' },
      spec: {
        owner: { name: 'aks' },
        virtualMachinesProfile: { scale: { autoscale: [{ minCount: 1, maxCount: 3, sizes: ['D2'] }] } },
      },
    };
    const bagged = { scale: { $propertyBag: { Autoscale: '[{"maxCount":3,"minCount":1,"sizes":["D2"]}]' } } };
    const at = (version: string) =>
      (convertDropping(pool, version) as { spec: Record<string, unknown> }).spec.virtualMachinesProfile;
    expect(at('v1api20250801storage')).toEqual(bagged);
    expect(at('v20251002previewstorage')).toEqual(bagged);
    // An API version has no bag: plain convert() drops it there, as the operator drops what it cannot type;
    // with leftovers kept it stays visible, for manifest conversion to name as a loss.
    expect(at('v20251002preview')).toEqual({ scale: {} });
    expect(
      (convert(pool, 'v20251002preview') as { spec: Record<string, unknown> }).spec.virtualMachinesProfile,
    ).toEqual(bagged);
  });

  it('go through the destination type conversion: a bad inner value stays in the bag, whole', () => {
    const object = server({ identity: { type: 5 } });
    const up = convert(object, hub);
    expect(up.spec).not.toHaveProperty('identity');
    expect((up.spec as { $propertyBag: Record<string, string> }).$propertyBag.Identity).toBe('{"type":5}');
    expectRoundTrip(convert(up, 'v1api20210601'), spoke(object));
  });

  it('are checked and converted at every depth, unknown nested keys kept in nested bags', () => {
    const object = server({
      identity: {
        type: 'UserAssigned',
        zz: 1,
        userAssignedIdentities: [{ reference: { armId: '/id' }, yy: true }],
      },
    });
    const up = convert(object, hub);
    expect(up.spec).toMatchObject({
      identity: {
        type: 'UserAssigned',
        $propertyBag: { Zz: '1' },
        userAssignedIdentities: [{ reference: { armId: '/id' }, $propertyBag: { Yy: 'true' } }],
      },
    });
    expectRoundTrip(convert(up, 'v1api20210601'), spoke(object));
  });

  it('read an extra named as the operator key (`Identity`) as the operator entry for `identity`', () => {
    // The operator keys `identity` as `Identity` in a bag (genruntime property_bag.go), so the two cannot be
    // told apart; the stored text is the same either way, so the round trip still loses nothing.
    const object = server({ Identity: { type: 'SystemAssigned' } });
    const latest = convert(object, 'v20250801');
    expect(latest.spec).toMatchObject({ identity: { type: 'SystemAssigned' } });
    expectRoundTrip(convert(latest, 'v1api20210601'), spoke(object));
  });
});

describe('a key named __proto__', () => {
  it('survives in maps, as an unknown extra and in the bag, at every step', () => {
    const object = server(
      JSON.parse(
        '{"tags":{"__proto__":"p","a":"b"},"__proto__":{"x":1},"storage":{"storageSizeGB":32,"__proto__":"s"}}',
      ),
    );
    for (const version of ['v1api20210601', 'v20250801', hub]) {
      const there = convert(object, version);
      const spec = there.spec as Record<string, unknown>;
      expect(Object.hasOwn(spec.tags as object, '__proto__'), version).toBe(true);
      expect(Object.getPrototypeOf(spec.tags)).toBe(Object.prototype);
      expectRoundTrip(convert(there, 'v1api20210601'), spoke(object));
    }
    const root = { ...server({}), ...JSON.parse('{"__proto__":"root"}') };
    expect(Object.hasOwn(convert(root, hub), '__proto__')).toBe(true);
  });
});

describe('a stale bag entry under a name the version also types', () => {
  it('is overwritten by the typed value on the way to a version that cannot type it', () => {
    // allowedCopyScope came with 2022-09-01: StorageAccount's 2021-04-01 storage variant keeps it in its bag.
    const object = {
      apiVersion: 'storage.azure.com/v20250601',
      kind: 'StorageAccount',
      metadata: { name: 's' },
      spec: {
        owner: { name: 'rg' },
        location: 'w',
        allowedCopyScope: 'AAD',
        $propertyBag: { AllowedCopyScope: 'PrivateLink' },
      },
    };
    const older = convert(object, 'v1api20210401storage');
    expect((older.spec as { $propertyBag: Record<string, string> }).$propertyBag.AllowedCopyScope).toBe(
      'AAD',
    );
    expect(convert(older, 'v20250601').spec).toMatchObject({ allowedCopyScope: 'AAD' });
  });
});
