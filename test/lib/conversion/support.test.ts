import { describe, expect, it } from 'vitest';
import { difference } from './support.ts';

describe('the round-trip comparison', () => {
  it('compares integers exactly and other numbers within tolerance', () => {
    expect(difference(9007199254740990, 9007199254740991)).toBe('$');
    expect(difference({ a: 1000001 }, { a: 1000000 })).toBe('$.a');
    expect(difference(0, -0)).toBeUndefined();
    expect(difference(0.1 + 0.2, 0.3)).toBeUndefined();
    expect(difference(0.31, 0.3)).toBe('$');
  });

  it('reads property-bag entries as the properties they hold', () => {
    expect(difference({ a: 1, $propertyBag: { zz: '{"b":[1]}' } }, { a: 1, zz: { b: [1] } })).toBeUndefined();
    expect(difference({ $propertyBag: { zz: '2' } }, { zz: 1 })).toBe('$.zz');
    expect(difference({}, { zz: undefined })).toBe('$.zz');
  });
});
