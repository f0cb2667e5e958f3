import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf, type GroupShapes, kindsOf, type TypeShape } from '../../src/testing/shape-arbitrary.ts';

/** A group with one package `v1` whose resource `Thing` has `spec` and `status` of the given types. */
function groupOf(
  types: Record<string, TypeShape>,
  names: readonly string[] = [],
  status = 'Status',
): GroupShapes {
  return {
    group: 'things.azure.com',
    names,
    packages: {
      v1: {
        resources: { Thing: ['Spec', status] },
        types: { Status: { properties: [], runtime: true }, ...types },
      },
    },
  };
}

const draw = (shapes: GroupShapes, numRuns = 300) =>
  fc.sample(arbitraryOf(shapes, 'v1', 'Thing'), { seed: 7, numRuns });

const specsOf = (shapes: GroupShapes, numRuns = 300) =>
  draw(shapes, numRuns).map((o) => o.spec as Record<string, unknown>);

describe('arbitraryOf', () => {
  it('draws a resource root with apiVersion, kind, fixed metadata and always a spec', () => {
    const objects = draw(groupOf({ Spec: { properties: [] } }));
    for (const o of objects) {
      expect(o.apiVersion).toBe('things.azure.com/v1');
      expect(o.kind).toBe('Thing');
      expect(o.metadata).toEqual({ name: 'sample', namespace: 'default' });
      expect(o.spec).toBeTypeOf('object');
    }
    expect(objects.some((o) => o.status !== undefined)).toBe(true);
    expect(objects.some((o) => o.status === undefined)).toBe(true);
  });

  it('draws each primitive kind within its bounds', () => {
    const specs = specsOf(
      groupOf({
        Spec: {
          properties: [
            ['s', 'string'],
            ['i', 'integer'],
            ['n', 'number'],
            ['b', 'boolean'],
          ],
          runtime: true,
        },
      }),
    );
    const values = (key: string) => specs.flatMap((s) => (key in s ? [s[key]] : []));
    expect(values('s').every((v) => typeof v === 'string' && v.length <= 8)).toBe(true);
    expect(values('i').every((v) => Number.isSafeInteger(v))).toBe(true);
    expect(values('i').some((v) => Math.abs(v as number) > 2 ** 32)).toBe(true);
    expect(values('n').every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
    expect(values('n').some((v) => !Number.isInteger(v))).toBe(true);
    expect(new Set(values('b'))).toEqual(new Set([true, false]));
    // Every property is optional outside a oneOf.
    for (const key of ['s', 'i', 'n', 'b'])
      expect(
        specs.some((s) => !(key in s)),
        key,
      ).toBe(true);
  });

  it('draws only the values of an enum, and all of them', () => {
    const specs = specsOf(
      groupOf({
        Spec: { properties: [['tier', { type: 'Tier' }]], runtime: true },
        Tier: { enum: ['Hot', 'Cool', 3] },
      }),
    );
    expect(new Set(specs.flatMap((s) => ('tier' in s ? [s.tier] : [])))).toEqual(new Set(['Hot', 'Cool', 3]));
  });

  it('draws nested objects, arrays of at most two and maps of at most two keys', () => {
    const specs = specsOf(
      groupOf({
        Spec: {
          properties: [
            ['inner', { type: 'Inner' }],
            ['list', { array: { type: 'Inner' } }],
            ['tags', { map: 'string' }],
          ],
          runtime: true,
        },
        Inner: { properties: [['x', 'boolean']], runtime: true },
      }),
    );
    const inner = specs.flatMap((s) => (s.inner ? [s.inner as Record<string, unknown>] : []));
    expect(inner.length).toBeGreaterThan(0);
    expect(inner.every((o) => Object.keys(o).every((k) => k === 'x'))).toBe(true);
    const lists = specs.flatMap((s) => (Array.isArray(s.list) ? [s.list as unknown[]] : []));
    expect(lists.every((l) => l.length <= 2)).toBe(true);
    expect(lists.some((l) => l.length === 2)).toBe(true);
    expect(lists.flat().every((o) => typeof o === 'object' && o !== null && !Array.isArray(o))).toBe(true);
    const maps = specs.flatMap((s) => (s.tags ? [s.tags as Record<string, unknown>] : []));
    expect(maps.every((m) => Object.keys(m).length <= 2)).toBe(true);
    expect(maps.some((m) => Object.keys(m).length === 2)).toBe(true);
    expect(maps.flatMap((m) => Object.values(m)).every((v) => typeof v === 'string')).toBe(true);
    expect(maps.some((m) => Object.hasOwn(m, '__proto__'))).toBe(true);
  });

  it('draws exactly one oneOf option, with the common required properties always there', () => {
    const specs = specsOf(
      groupOf({
        Spec: {
          properties: [
            ['owner', 'string'],
            ['note', 'string'],
            ['a', { type: 'Leaf' }],
            ['b', { type: 'Leaf' }],
          ],
          required: ['owner'],
          oneOf: ['a', 'b'],
          runtime: true,
        },
        Leaf: { properties: [], runtime: true },
      }),
    );
    for (const s of specs) {
      expect('owner' in s).toBe(true);
      expect(('a' in s ? 1 : 0) + ('b' in s ? 1 : 0)).toBe(1);
    }
    expect(specs.some((s) => 'a' in s)).toBe(true);
    expect(specs.some((s) => 'b' in s)).toBe(true);
    expect(specs.some((s) => !('note' in s))).toBe(true);
  });

  it('mixes in extras from the group names, never a property, its bag key or a reserved name', () => {
    const names = ['other', 'mine', 'Mine', 'held', 'Held'];
    const specs = specsOf(
      groupOf({ Spec: { properties: [['mine', 'string']], reserved: ['held'] } }, names),
      1000,
    );
    const keys = new Set(specs.flatMap((s) => Object.keys(s)));
    expect(keys.has('other')).toBe(true);
    expect([...keys].some((k) => k.startsWith('zz'))).toBe(true);
    expect(keys.has('Mine')).toBe(false);
    expect(keys.has('held')).toBe(false);
    expect(keys.has('Held')).toBe(false);
    // Without the reservation, the same name is drawn.
    const unreserved = specsOf(groupOf({ Spec: { properties: [['mine', 'string']] } }, names), 1000);
    expect(unreserved.some((s) => 'held' in s)).toBe(true);
  });

  it('draws no extras inside a runtime type', () => {
    const specs = specsOf(groupOf({ Spec: { properties: [['mine', 'string']], runtime: true } }, ['other']));
    expect(specs.every((s) => Object.keys(s).every((k) => k === 'mine'))).toBe(true);
  });

  it('draws no extras anywhere when told to, as the API server stores objects, from its own cache', () => {
    const shapes = groupOf(
      {
        Spec: {
          properties: [
            ['mine', 'string'],
            ['inner', { type: 'Inner' }],
          ],
        },
        Inner: { properties: [['x', 'integer']] },
      },
      ['other'],
    );
    const stored = fc.sample(arbitraryOf(shapes, 'v1', 'Thing', { extras: false }), {
      seed: 7,
      numRuns: 500,
    });
    for (const o of stored) {
      expect(
        Object.keys(o).every((k) => ['apiVersion', 'kind', 'metadata', 'spec', 'status'].includes(k)),
      ).toBe(true);
      const spec = o.spec as Record<string, unknown>;
      expect(Object.keys(spec).every((k) => k === 'mine' || k === 'inner')).toBe(true);
      if (spec.inner !== undefined)
        expect(Object.keys(spec.inner as object).every((k) => k === 'x')).toBe(true);
    }
    expect(stored.some((o) => (o.spec as { inner?: { x?: number } }).inner?.x !== undefined)).toBe(true);
    // The same package drawn with extras afterwards still gets them: the two are cached apart.
    const specs = specsOf(shapes, 500);
    expect(specs.some((s) => 'other' in s)).toBe(true);
    expect(specs.some((s) => Object.keys((s.inner as object | undefined) ?? {}).some((k) => k !== 'x'))).toBe(
      true,
    );
  });

  it('builds a type only when a kind reaches it, and names what is missing or circular', () => {
    const broken: TypeShape = { properties: [['x', { type: 'Nowhere' }]] };
    expect(draw(groupOf({ Spec: { properties: [] }, Unused: broken })).length).toBe(300);
    expect(() => arbitraryOf(groupOf({ Spec: broken }), 'v1', 'Thing')).toThrow(/no type Nowhere/);
    const loop: TypeShape = { properties: [['self', { type: 'Spec' }]] };
    expect(() => arbitraryOf(groupOf({ Spec: loop }), 'v1', 'Thing')).toThrow(/Spec refers to itself/);
    expect(() => arbitraryOf(groupOf({ Spec: { properties: [] } }), 'v2', 'Thing')).toThrow(/no package v2/);
    expect(() => arbitraryOf(groupOf({ Spec: { properties: [] } }), 'v1', 'Other')).toThrow(
      /no resource Other/,
    );
  });

  it('draws the same objects for the same seed, and lists a package kinds', () => {
    const shapes = groupOf({ Spec: { properties: [['s', 'string']] } }, ['other']);
    expect(JSON.stringify(draw(shapes))).toBe(JSON.stringify(draw(shapes)));
    expect(kindsOf(shapes, 'v1')).toEqual(['Thing']);
    expect(kindsOf(shapes, 'v9')).toEqual([]);
  });
});
