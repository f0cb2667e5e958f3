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
          known: ['name', 'oldName', 'tier', 'sku', 'rules', 'tags', 'gone', 'settings'],
          destBag: true,
          steps: [
            ['=', 'name', 's'],
            ['=>', 'oldName', 'newName', 's'],
            ['=', 'tier', { spell: ['Standard', 'Premium'] }],
            ['=', 'sku', { obj: 'Sku_to_v2' }],
            ['=', 'rules', { arr: { obj: 'Sku_to_v2' } }],
            ['=', 'tags', { map: 's' }],
            ['=', 'settings', { map: 'j' }],
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

const convert = groupConverters('example.azure.com', () => plans).resource('v1', 'Thing_to_v2');

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

  it('copies any JSON value (a v1.JSON) whole, sharing nothing with the source, and refuses what is not JSON', () => {
    const settings = { a: { nested: [1, 'x', null, { deep: true }] }, b: 'text', __proto__x: 2.5 };
    const out = convert({ apiVersion: 'example.azure.com/v1', kind: 'Thing', spec: { settings } });
    const spec = out.spec as { settings: typeof settings };
    expect(spec.settings).toEqual(settings);
    expect(spec.settings.a).not.toBe(settings.a);
    expect(spec.settings.a.nested).not.toBe(settings.a.nested);
    const proto = JSON.parse('{"settings": {"k": {"__proto__": {"polluted": 1}}}}');
    const copied = convert({ apiVersion: 'example.azure.com/v1', kind: 'Thing', spec: proto }).spec as {
      settings: { k: Record<string, unknown> };
    };
    expect(Object.keys(copied.settings.k)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const notJson = {
      apiVersion: 'example.azure.com/v1',
      kind: 'Thing',
      spec: { settings: { k: [Number.NaN] } },
    };
    expect(() => convert(notJson)).toThrow('spec.settings["k"][0]: expected a JSON value');
  });
});

// Conversions read their source by walking its own keys (plan-compiler's sourceReads): these hold whatever
// order the keys come in and whatever the object inherits.
const ownKeys: GroupPlans = {
  packages: {
    v1: {
      resources: {
        Thing_to_v2: { apiVersion: 'example.azure.com/v2', spec: 'Spec_to_v2', status: 'Empty' },
      },
      types: {
        Spec_to_v2: {
          known: ['alpha', 'constructor', 'zulu', 'ignored'],
          destBag: true,
          steps: [
            ['=', 'zulu', 's'],
            ['=', 'constructor', 's'],
            ['=', 'alpha', 's'],
          ],
        },
        Empty: { known: [], destBag: false, steps: [] },
      },
    },
  },
  hooks: {},
};

describe("a conversion's reading of its source", () => {
  const convert = groupConverters('example.azure.com', () => ownKeys).resource('v1', 'Thing_to_v2');
  const specOf = (spec: Record<string, unknown>) =>
    convert({ apiVersion: 'example.azure.com/v1', kind: 'Thing', spec }).spec as Record<string, unknown>;

  it("writes in the plan's order whatever order the source's keys come in", () => {
    const out = specOf({ alpha: 'a', ignored: 1, zulu: 'z', constructor: 'c' });
    expect(Object.keys(out)).toEqual(['zulu', 'constructor', 'alpha']);
    expect(Object.keys(specOf({ constructor: 'c', zulu: 'z', alpha: 'a' }))).toEqual([
      'zulu',
      'constructor',
      'alpha',
    ]);
  });

  it('reads only own keys: a property named like an inherited member is absent when the source lacks it', () => {
    expect(specOf({ alpha: 'a' })).toEqual({ alpha: 'a' });
  });

  it('stashes only keys the type does not define, and leaves a defined key no step reads out of the bag', () => {
    expect(specOf({ ignored: 'x', toString: 'y', hasOwnProperty: 2 })).toEqual({
      $propertyBag: { ToString: 'y', HasOwnProperty: '2' },
    });
    expect(specOf({ ignored: 'x' })).toEqual({});
  });
});

// A property that skips v1: v2 has `breaker` with `retry`, v0 has it without, v1 not at all. v1's bag keeps
// v0's shape, so the way down converts into it (with v0's conversions) and the way up converts out of it.
const skipping: GroupPlans = {
  packages: {
    v0: {
      resources: {},
      types: {
        Breaker_from_v2: {
          known: ['name', 'retry'],
          destBag: true,
          steps: [
            ['=', 'name', 's'],
            ['>', 'retry'],
          ],
        },
        Breaker_to_v2: {
          known: ['name'],
          destBag: true,
          steps: [
            ['=', 'name', 's'],
            ['<', 'retry', 'b'],
          ],
        },
      },
    },
    v1: {
      resources: {
        Thing_from_v2: { apiVersion: 'example.azure.com/v1', spec: 'Spec_from_v2', status: 'Empty' },
        Thing_to_v2: { apiVersion: 'example.azure.com/v2', spec: 'Spec_to_v2', status: 'Empty' },
      },
      types: {
        Spec_from_v2: {
          known: ['breaker'],
          destBag: true,
          steps: [['>', 'breaker', { obj: 'Breaker_from_v2' }, 'v0']],
        },
        Spec_to_v2: { known: [], destBag: true, steps: [['<', 'breaker', { obj: 'Breaker_to_v2' }, 'v0']] },
        Empty: { known: [], destBag: false, steps: [] },
      },
    },
  },
  hooks: {},
};

describe('a property that skips a version', () => {
  const converters = groupConverters('example.azure.com', () => skipping);
  const down = converters.resource('v1', 'Thing_from_v2');
  const up = converters.resource('v1', 'Thing_to_v2');

  it('rides in the bag in the shape of the version below, with what that shape lacks in its own bag', () => {
    const v1 = down({
      apiVersion: 'example.azure.com/v2',
      kind: 'Thing',
      spec: { breaker: { name: 'b', retry: true } },
    });
    expect(v1.spec).toEqual({ $propertyBag: { Breaker: '{"name":"b","$propertyBag":{"Retry":"true"}}' } });
    expect(up(v1).spec).toEqual({ breaker: { name: 'b', retry: true } });
  });

  it('comes up from the shape the version below left in the bag', () => {
    const fromBelow = { $propertyBag: { Breaker: '{"name":"c","$propertyBag":{"Retry":"false"}}' } };
    expect(up({ apiVersion: 'example.azure.com/v1', kind: 'Thing', spec: fromBelow }).spec).toEqual({
      breaker: { name: 'c', retry: false },
    });
  });
});

// Go's `omitempty` on every list and map of the operator's types: v2 holds `rule`, `rules` and `labels`, v1
// keeps them in its bag. The stashed values are v2's typed values, normalised by v2's own conversions.
const emptyCollections: GroupPlans = {
  packages: {
    v2: {
      resources: {},
      types: {
        Rule_normalize: {
          known: ['name', 'ports'],
          destBag: true,
          steps: [
            ['=', 'name', 's'],
            ['=', 'ports', { arr: 'i' }],
          ],
        },
      },
    },
    v1: {
      resources: {
        Thing_from_v2: { apiVersion: 'example.azure.com/v1', spec: 'Spec_from_v2', status: 'Empty' },
        Thing_to_v2: { apiVersion: 'example.azure.com/v2', spec: 'Spec_to_v2', status: 'Empty' },
      },
      types: {
        Spec_from_v2: {
          src: 'v2',
          known: ['zones', 'tags', 'rule', 'rules', 'labels'],
          destBag: true,
          steps: [
            ['=', 'zones', { arr: 's' }],
            ['=', 'tags', { map: 's' }],
            ['>', 'rule', { obj: 'Rule_normalize' }],
            ['>', 'rules', { arr: { obj: 'Rule_normalize' } }],
            ['>', 'labels', { map: 's' }],
          ],
        },
        Spec_to_v2: {
          dest: 'v2',
          known: [],
          destBag: true,
          steps: [
            ['<', 'rules', { arr: { obj: 'Rule_normalize' } }],
            ['<', 'labels', { map: 's' }],
          ],
        },
        Identity_to_v2: {
          known: ['reference'],
          destBag: true,
          steps: [['=!', 'reference', { obj: 'Reference_to_v2' }]],
        },
        Reference_to_v2: { known: ['name'], destBag: false, steps: [['=', 'name', 's']] },
        Empty: { known: [], destBag: false, steps: [] },
      },
    },
  },
  hooks: {},
};

describe("Go's empty lists and maps, as the operator writes them", () => {
  const converters = groupConverters('example.azure.com', () => emptyCollections);
  const down = converters.resource('v1', 'Thing_from_v2');
  const up = converters.resource('v1', 'Thing_to_v2');
  const thing = (apiVersion: string, spec: Record<string, unknown>) => ({
    apiVersion: `example.azure.com/${apiVersion}`,
    kind: 'Thing',
    spec,
  });

  it('are neither assigned nor stashed; a stashed object is its typed value, nested empty lists left out', () => {
    const v1 = down(
      thing('v2', { zones: [], tags: {}, rule: { name: 'r', ports: [] }, rules: [], labels: {} }),
    );
    expect(v1.spec).toEqual({ $propertyBag: { Rule: '{"name":"r"}' } });
    const full = down(
      thing('v2', { zones: ['1'], rules: [{ name: 'a', ports: [443] }], labels: { a: 'b' } }),
    );
    expect(full.spec).toEqual({
      zones: ['1'],
      $propertyBag: { Rules: '[{"name":"a","ports":[443]}]', Labels: '{"a":"b"}' },
    });
  });

  it('an empty struct is still stashed, as a Go pointer to one is written', () => {
    expect(down(thing('v2', { rule: {} })).spec).toEqual({ $propertyBag: { Rule: '{}' } });
  });

  it('recalled empty, are taken from the bag and not written', () => {
    expect(up(thing('v1', { $propertyBag: { Rules: '[]', Labels: '{}' } })).spec).toEqual({});
  });

  it('an entry the operator could not have written (under a name the version types) stays in the bag', () => {
    // The operator's Remove would drop it; kubectl-aso keeps what it cannot account for (issue 23, bad input).
    const stale = { rules: [], $propertyBag: { Rules: '[{"name":"old"}]' } };
    expect(down(thing('v2', stale)).spec).toEqual({ $propertyBag: { Rules: '[{"name":"old"}]' } });
  });
});

describe('a Go struct field that is no pointer', () => {
  const identity = groupConverters('example.azure.com', () => emptyCollections).type('v1', 'Identity_to_v2');

  it('is written `{}` when unset, a fresh object each time, and converted when set', () => {
    const first = identity({}, 'spec.identity') as { reference: object };
    expect(first).toEqual({ reference: {} });
    expect((identity({}, 'spec.identity') as { reference: object }).reference).not.toBe(first.reference);
    expect(identity({ reference: { name: 'id' } }, 'spec.identity')).toEqual({ reference: { name: 'id' } });
  });
});

describe('a plan that asks to leave out an empty struct', () => {
  it('is refused when compiled: Go writes a struct field even when it is empty', () => {
    const plans: GroupPlans = {
      packages: {
        v1: {
          resources: {},
          types: { Bad_to_v2: { known: ['ref'], destBag: false, steps: [['=0', 'ref', { obj: 'X' }]] } },
        },
      },
      hooks: {},
    };
    expect(() => groupConverters('example.azure.com', () => plans).type('v1', 'Bad_to_v2')).toThrow(
      'ref: a struct field is written even when empty (=!, not =0)',
    );
  });
});
