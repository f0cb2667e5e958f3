import { describe, expect, it } from 'vitest';
import type { ArmLayout } from '../../src/lib/conversion/arm.ts';
import { difference, expectArmPayload, typed } from '../../src/testing/conversion-support.ts';

describe('the round-trip comparison', () => {
  it('reads a nested bag text that parses as JSON as the raw string the operator stores, or as that value', () => {
    // An extra `cluster` holding an extra `A`: stashed whole, with its own bag, where `"0"` is stored raw.
    const actual = { $propertyBag: { Cluster: '{"$propertyBag":{"A":"0"}}' } };
    expect(difference(actual, typed({ cluster: { A: '0' } }, []))).toBeUndefined();
    expect(difference(actual, typed({ cluster: { A: 0 } }, []))).toBeUndefined();
    expect(difference(actual, typed({ cluster: { A: '1' } }, []))).toBe('$.$propertyBag["Cluster"].A');
  });

  it('compares integers exactly and other numbers within tolerance', () => {
    expect(difference(9007199254740990, 9007199254740991)).toBe('$');
    expect(difference({ a: 1000001 }, { a: 1000000 })).toBe('$.a');
    expect(difference(0, -0)).toBeUndefined();
    expect(difference(0.1 + 0.2, 0.3)).toBeUndefined();
    expect(difference(0.31, 0.3)).toBe('$');
  });

  it('expects the unknown keys of a typed object in its bag, and its typed properties in their fields', () => {
    const expected = typed({ a: 1, zz: { b: [1] } }, ['a', '$propertyBag']);
    expect(difference({ a: 1, $propertyBag: { Zz: '{"b":[1]}' } }, expected)).toBeUndefined();
    // A bag on one side only is compared entry by entry, as the other side's empty one.
    expect(difference({ a: 1, zz: { b: [1] } }, expected)).toBe('$.$propertyBag["Zz"]');
    expect(difference({ $propertyBag: { A: '1', Zz: '{"b":[1]}' } }, expected)).toBe('$.$propertyBag["A"]');
    expect(difference({ a: 1, $propertyBag: { Zz: '{"b":[2]}' } }, expected)).toBe(
      '$.$propertyBag["Zz"].B[0]',
    );
    expect(difference({}, typed({ zz: undefined }, []))).toBe('$.$propertyBag["Zz"]');
  });

  it('takes a bag of Go empty values on one side for none: the operator never stashes an empty list', () => {
    expect(difference({ a: 1 }, typed({ a: 1, zz: [] }, ['a', '$propertyBag']))).toBeUndefined();
    expect(difference({ a: 1 }, typed({ a: 1, zz: [1] }, ['a', '$propertyBag']))).toBe(
      '$.$propertyBag["Zz"]',
    );
  });

  it('compares objects of unknown type strictly, bag entries parsed', () => {
    expect(difference({ $propertyBag: { x: '1' } }, { x: 1 })).toBe('$.$propertyBag');
    expect(difference({ $propertyBag: { x: '1' } }, { $propertyBag: { x: '1.0' } })).toBeUndefined();
    expect(difference({ $propertyBag: { x: '{' } }, { $propertyBag: { x: '{' } })).toBeUndefined();
    expect(difference({}, { zz: undefined })).toBe('$.zz');
  });
});

describe('the ARM payload check', () => {
  const layout: ArmLayout = {
    kind: 'plain',
    spec: { root: ['location'], properties: ['x'], values: { x: { object: 'X' } } },
    status: { root: [], properties: [] },
    objects: { X: { y: 0 } },
  };
  const object = (spec: Record<string, unknown>) => ({
    apiVersion: 'g/v',
    kind: 'K',
    metadata: { name: 'n' },
    spec: { owner: { name: 'o' }, location: 'l', ...spec },
  });

  it('accepts a body that is the spec without azureName, owner and bags', () => {
    expect(() => expectArmPayload(object({ x: { y: 1, $propertyBag: { z: '1' } } }), layout)).not.toThrow();
  });

  it('rejects a body that leaves out a spec property', () => {
    expect(() => expectArmPayload(object({ x: { y: 1 }, unsent: 2 }), layout)).toThrow(
      /differs from the spec/,
    );
  });
});
