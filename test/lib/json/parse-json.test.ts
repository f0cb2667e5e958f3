import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasEscapedKey, parseJson } from '../../../src/lib/json/parse-json.ts';
import { parseJsonStrictly } from '../../../src/lib/json/strict-parse.ts';

/** A list as the API server writes it: one object has a `\` tag, the next ones one-character escaped tags. */
const poisonedList = String.raw`{"items":[{"tags":{"\\":"a"}},{"tags":{"\u003e":"b"}},{"tags":{"\"":"c"}},{"tags":{"\n":"d"}}]}`;
const poisonedTags = [{ '\\': 'a' }, { '>': 'b' }, { '"': 'c' }, { '\n': 'd' }];

function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keysOf(item, out);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      keysOf(item, out);
    }
  return out;
}

describe('parseJsonStrictly', () => {
  it('reads what JSON.stringify writes, as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonStrictly(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads escaped one-character keys, numbers as written and __proto__ as an own key', () => {
    const parsed = parseJsonStrictly(
      String.raw`{"\u003e":"a","\"":"b","\\":"c","\u0026":1e+21,"__proto__":{"x":-0.5},"l":[true,false,null]}`,
    ) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['>', '"', '\\', '&', '__proto__', 'l']);
    expect(parsed['&']).toBe(1e21);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ x: -0.5 });
    expect(() => parseJsonStrictly('{"a":1,}')).toThrow(SyntaxError);
    expect(() => parseJsonStrictly('{"a":1} x')).toThrow(SyntaxError);
  });
});

describe('parseJson', () => {
  it('reads every escaped key of a list exactly (a fresh `node` misreads the last three with JSON.parse)', () => {
    expect((parseJson(poisonedList) as { items: { tags: object }[] }).items.map((item) => item.tags)).toEqual(
      poisonedTags,
    );
  });

  it('finds an escaped key exactly when some key of the value has a character JSON escapes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, pretty) => {
        const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
        const escapedKey = keysOf(value).some((key) => JSON.stringify(key) !== `"${key}"`);
        expect(hasEscapedKey(text)).toBe(escapedKey);
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('does not take an escaped value, or a colon inside a string, for an escaped key', () => {
    expect(hasEscapedKey(String.raw`{"message":"a \"quoted\": word","path":"C:\\x"}`)).toBe(false);
    expect(hasEscapedKey(String.raw`["\n" : ]`)).toBe(true);
    expect(hasEscapedKey(String.raw`{"a\\b"  :1}`)).toBe(true);
  });

  it('throws SyntaxError on bad text on both paths', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseJson(String.raw`{"\n":`)).toThrow(SyntaxError);
  });
});
