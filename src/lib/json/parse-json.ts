import { parseJsonStrictly } from './strict-parse.ts';

/**
 * Whether a JSON text has an object key with an escape in it (`"\u003e":`, `"a\"b":`). Only such keys are
 * misread by V8's `JSON.parse` (see `strict-parse.ts`), so a text without one is safe to read natively. A
 * single pass over the characters, so that a CRD's long escaped descriptions cost no more than their length.
 */
export function hasEscapedKey(text: string): boolean {
  if (!text.includes('\\')) return false;
  const quote = 34;
  const backslash = 92;
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code !== quote) {
      at++;
      continue;
    }
    let escaped = false;
    at++;
    while (at < text.length) {
      const inner = text.charCodeAt(at);
      if (inner === backslash) {
        escaped = true;
        at += 2;
      } else if (inner === quote) {
        break;
      } else {
        at++;
      }
    }
    at++;
    if (!escaped) continue;
    let next = at;
    while (next < text.length && ' \t\n\r'.includes(text.charAt(next))) next++;
    if (text.charAt(next) === ':') return true;
  }
  return false;
}

/**
 * Reads a JSON text exactly. Everything the plugin reads from the API server, a state file or a property bag
 * goes through here instead of `JSON.parse`: V8 misreads some escaped keys (nodejs/node#63785), and a key
 * misread in an object that `migrate` writes back would be changed in the cluster. Texts without escaped
 * keys, nearly all of them, are read natively; the others by {@link parseJsonStrictly}. Throws SyntaxError as
 * `JSON.parse` does.
 */
export function parseJson(text: string): unknown {
  return hasEscapedKey(text) ? parseJsonStrictly(text) : JSON.parse(text);
}
