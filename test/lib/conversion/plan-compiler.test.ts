import { describe, expect, it } from 'vitest';
import { WrongType } from '../../../src/lib/conversion/errors.ts';
import { groupConverters } from '../../../src/lib/conversion/plan-converters.ts';
import type { GroupPlans } from '../../../src/lib/conversion/plan-table.ts';

// A small hand-made group: one step of each kind, so each is seen doing what the generator plans it to.
const plans: GroupPlans = {
  packages: {
    v1: {
      resources: {
        Thing_to_v2: { apiVersion: 'example.azure.com/v2', spec: 'Spec_to_v2', status: 'Status_to_v2' },
      },
      types: {
        Spec_to_v2: {
          known: ['name', 'oldName', 'tier', 'sku', 'rules', 'tags', 'gone'],
          destBag: true,
          steps: [
            ['=', 'name', 's'],
            ['=>', 'oldName', 'newName', 's'],
            ['=', 'tier', { spell: ['Standard', 'Premium'] }],
            ['=', 'sku', { obj: 'Sku_to_v2' }],
            ['=', 'rules', { arr: { obj: 'Sku_to_v2' } }],
            ['=', 'tags', { map: 's' }],
            ['>', 'gone'],
            ['<', 'size', 'i'],
            ['v', 'v1'],
          ],
        },
        Sku_to_v2: { known: ['name'], destBag: false, steps: [['=', 'name', 's']] },
        Status_to_v2: { known: [], destBag: false, steps: [['=', 'missing', { obj: 'Nowhere' }]] },
      },
    },
  },
  hooks: {},
};

const convert = groupConverters('example.azure.com', plans).resource('v1', 'Thing_to_v2');

describe('conversions compiled from plans', () => {
  it('assigns, renames, respells, converts nested values, stashes and recalls as planned', () => {
    const out = convert({
      apiVersion: 'example.azure.com/v1',
      kind: 'Thing',
      metadata: { name: 't' },
      spec: {
        name: 'a',
        oldName: 'b',
        tier: 'premium',
        sku: { name: 'S1' },
        rules: [{ name: 'r' }],
        tags: { env: 'x' },
        gone: { deep: [1] },
        extra: 'kept',
        $propertyBag: { Size: '3' },
      },
    });
    expect(out).toEqual({
      apiVersion: 'example.azure.com/v2',
      kind: 'Thing',
      metadata: { name: 't' },
      spec: {
        name: 'a',
        newName: 'b',
        tier: 'Premium',
        sku: { name: 'S1' },
        rules: [{ name: 'r' }],
        tags: { env: 'x' },
        originalVersion: 'v1',
        size: 3,
        $propertyBag: { Gone: '{"deep":[1]}', Extra: 'kept' },
      },
    });
  });

  it('names the JSON path of a value of the wrong type, however deep', () => {
    const bad = {
      apiVersion: 'example.azure.com/v1',
      kind: 'Thing',
      spec: { rules: [{ name: 'r' }, { name: 5 }] },
    };
    expect(() => convert(bad)).toThrow(WrongType);
    expect(() => convert(bad)).toThrow('spec.rules[1].name: expected a string');
  });

  it('compiles a conversion only when a value needs it', () => {
    const ok = convert({ apiVersion: 'example.azure.com/v1', kind: 'Thing', status: {} });
    expect(ok.status).toEqual({});
    expect(() =>
      convert({ apiVersion: 'example.azure.com/v1', kind: 'Thing', status: { missing: {} } }),
    ).toThrow('example.azure.com has no conversion Nowhere in v1');
  });
});
