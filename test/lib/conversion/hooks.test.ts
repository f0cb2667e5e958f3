import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertKeepingLeftovers, convert as convertWith } from '../../../src/lib/conversion/convert.ts';
import type { ConversionRegistry } from '../../../src/lib/conversion/registry-types.ts';
import type { KubeObject } from '../../../src/lib/conversion/resource.ts';
import { expectGolden, expectRoundTrip } from '../../../src/testing/conversion-support.ts';
import { fixtureRegistry, removeFixtureOutput } from '../../codegen/fixture-output.ts';

/*
 * The hooks are the generator's extension point for what no rule converts. No kind the operator has needs
 * one, so they run here on the generator's fixtures: a 2014-04-01 Sql version (an ARM API version the
 * operator never served) whose ServersDatabase needs hand-written steps up to 2021-11-01, generated at test
 * time and converted through its own registry as the shipped conversions are.
 */
let registry: ConversionRegistry;
beforeAll(async () => {
  registry = await fixtureRegistry();
}, 120_000);
afterAll(removeFixtureOutput);
const convert = (object: unknown, target: string): KubeObject => convertWith(object, target, registry);
// What an API version cannot type is dropped, as the operator drops it; kept, it shows what the hooks bagged.
const convertKeeping = (object: unknown, target: string): KubeObject =>
  convertKeepingLeftovers(object, target, registry);

const database = (spec: Record<string, unknown>) => ({
  apiVersion: 'sql.azure.com/v1api20140401',
  kind: 'ServersDatabase',
  spec: { owner: { name: 'server' }, location: 'westeurope', ...spec },
});

describe('the hand-written Microsoft.Sql database hooks', () => {
  it('turns a canonical decimal maxSizeBytes into an integer and back', () => {
    const up = convert(database({ maxSizeBytes: '1073741824' }), 'v1api20211101');
    expect(up.spec).toMatchObject({ maxSizeBytes: 1073741824 });
    expect(convert(up, 'v1api20140401').spec).toMatchObject({ maxSizeBytes: '1073741824' });
  });

  it('keeps a non-canonical maxSizeBytes in the property bag rather than altering it', () => {
    const hub = convert(database({ maxSizeBytes: '0012' }), 'v1api20211101storage');
    expect(hub.spec).not.toHaveProperty('maxSizeBytes');
    // The operator's key and a string's raw encoding (genruntime property_bag.go).
    expect(hub.spec).toMatchObject({ $propertyBag: { MaxSizeBytes: '0012' } });
    expect(convert(hub, 'v1api20140401').spec).toMatchObject({ maxSizeBytes: '0012' });
  });

  it('moves edition and service objective into sku and back', () => {
    const up = convert(
      database({ edition: 'Standard', requestedServiceObjectiveName: 'S0' }),
      'v1api20211101',
    );
    expect(up.spec).toMatchObject({ sku: { name: 'S0', tier: 'Standard' } });
    expect(up.spec).not.toHaveProperty('edition');
    expect(convert(up, 'v1api20140401').spec).toMatchObject({
      edition: 'Standard',
      requestedServiceObjectiveName: 'S0',
    });
  });

  it('shows a sku with capacity as edition and objective at 2014-04-01, and applies an edit there', () => {
    const newer = {
      ...database({}),
      apiVersion: 'sql.azure.com/v1api20211101',
      metadata: { name: 'db' },
      spec: {
        owner: { name: 's' },
        location: 'w',
        sku: { name: 'S0', tier: 'Standard', capacity: 10 },
      },
    };
    const older = convertKeeping(newer, 'v1api20140401');
    expect(older.spec).toMatchObject({
      edition: 'Standard',
      requestedServiceObjectiveName: 'S0',
      $propertyBag: { Sku: '{"capacity":10}' },
    });
    const { $propertyBag: _dropped, ...asTheOperatorShowsIt } = older.spec as Record<string, unknown>;
    expect(convert(newer, 'v1api20140401').spec).toEqual(asTheOperatorShowsIt);
    const edited = {
      ...older,
      spec: { ...(older.spec as object), edition: 'Premium', requestedServiceObjectiveName: 'P1' },
    };
    const back = convertKeeping(edited, 'v1api20211101');
    expect(back.spec).toMatchObject({ sku: { name: 'P1', tier: 'Premium', capacity: 10 } });
    expectGolden('sql/ServersDatabase.sku-capacity-edit-at-v1api20140401.json', { older, back });
  });

  it('keeps the rest of a sku with more than name and tier in the bag at 2014-04-01, and back', () => {
    const newer = {
      ...database({}),
      apiVersion: 'sql.azure.com/v1api20211101',
      spec: {
        owner: { name: 's' },
        location: 'w',
        sku: { name: 'GP_Gen5', tier: 'GeneralPurpose', capacity: 2 },
      },
    };
    const older = convertKeeping(newer, 'v1api20140401');
    expect(older.spec).toMatchObject({ edition: 'GeneralPurpose', requestedServiceObjectiveName: 'GP_Gen5' });
    expect(convertKeeping(older, 'v1api20211101').spec).toEqual(newer.spec);
  });
});

describe('the ServersDatabase spec hook beside a sku in the bag', () => {
  it('leaves edition and service objective in the bag, so the bag sku is not overwritten', () => {
    const object = {
      apiVersion: 'sql.azure.com/v1api20140401storage',
      kind: 'ServersDatabase',
      metadata: { name: 'db' },
      spec: { sku: 0, requestedServiceObjectiveName: '' },
    };
    const back = convert(convert(object, 'v1api20211101storage'), 'v1api20140401storage');
    expectRoundTrip(back, {
      ...object,
      spec: { $propertyBag: { Sku: '0' }, requestedServiceObjectiveName: '' },
    });
  });
});

describe('the ServersDatabase hooks beside malformed bag text', () => {
  it('leave unparsable entries in the bag, as text, and never throw a raw error', () => {
    // String properties (Edition, MaxSizeBytes at 2014-04-01) are stored raw by the operator, so any text is
    // their value; only a non-string property's text (Sku) can be malformed.
    const object = {
      apiVersion: 'sql.azure.com/v1api20211101storage',
      kind: 'ServersDatabase',
      metadata: { name: 'db' },
      spec: {
        owner: { name: 'server' },
        $propertyBag: { Sku: '{bad', Edition: '{bad', MaxSizeBytes: '"1' },
      },
    };
    const down = convertKeeping(object, 'v1api20140401');
    expect((down.spec as Record<string, unknown>).$propertyBag).toEqual({ Sku: '{bad' });
    expect(down.spec).toMatchObject({ edition: '{bad', maxSizeBytes: '"1' });
    const older = {
      ...object,
      apiVersion: 'sql.azure.com/v1api20140401storage',
      spec: { owner: { name: 'server' }, $propertyBag: { Sku: '{', MaxSizeBytes: '[' } },
    };
    const up = convertKeeping(older, 'v1api20211101');
    expect((up.spec as Record<string, unknown>).$propertyBag).toEqual({ Sku: '{', MaxSizeBytes: '[' });
    // Back at 2014-04-01, where maxSizeBytes is a string, the operator's raw text is that string.
    expect(convert(convert(older, 'v1api20211101storage'), 'v1api20140401storage')).toEqual({
      ...older,
      spec: { owner: { name: 'server' }, maxSizeBytes: '[', $propertyBag: { Sku: '{' } },
    });
  });
});
