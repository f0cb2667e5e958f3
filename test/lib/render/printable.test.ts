import { describe, expect, it } from 'vitest';
import { printable } from '../../../src/lib/render/printable.ts';

describe('printable', () => {
  it('escapes every bidirectional control, as it escapes C0/C1 controls', () => {
    const bidi = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ];
    for (const char of bidi) {
      const code = char.charCodeAt(0).toString(16).padStart(4, '0');
      expect(printable(`ok${char}txt.yaml`)).toBe(`ok\\u${code}txt.yaml`);
    }
    expect(printable('a\u001bb')).toBe('a\\x1bb');
    expect(printable('plain – text é')).toBe('plain – text é');
  });
});
