import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

/** Property-test runs per round-trip test; CI may raise or lower it with ASO_FC_RUNS. */
export const roundTripRuns = Number(process.env.ASO_FC_RUNS ?? 200);

/** Runs per reliability pair: fewer, since there are many pairs and the check is only "does not throw". */
export const reliabilityRuns = Math.max(10, Math.floor(roundTripRuns / 4));

/** Relative tolerance for floats (seed 000: float64 matches within tolerance). */
const tolerance = 1e-9;

/**
 * Deep equality for round trips: strings, booleans and integers exactly, other numbers within tolerance,
 * objects and arrays recursively. Returns the first differing JSON path, or undefined when equal.
 *
 * An object's `$propertyBag` entries count as the properties they hold: a conversion down to an API
 * version keeps what that version cannot type in its `$propertyBag` (property-bag.ts), so an unknown extra
 * property of a spoke comes back from the hub inside the bag, carrying the same information.
 */
export function difference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Number.isInteger(expected)) return actual === expected ? undefined : path;
    return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)) ? undefined : path;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return path;
    const a = unbag(actual as Record<string, unknown>);
    const e = unbag(expected as Record<string, unknown>);
    const keys = new Set([...Object.keys(a), ...Object.keys(e)]);
    for (const k of [...keys].sort()) {
      if (Object.hasOwn(a, k) !== Object.hasOwn(e, k)) return `${path}.${k}`;
      const d = difference(a[k], e[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(actual, expected) || actual === expected ? undefined : path;
}

/** The object with its `$propertyBag` entries parsed into plain properties (where no property is set). */
function unbag(object: Record<string, unknown>): Record<string, unknown> {
  const bag = object.$propertyBag;
  if (typeof bag !== 'object' || bag === null || Array.isArray(bag)) return object;
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(object)) if (k !== '$propertyBag') out[k] = object[k];
  const kept: Record<string, unknown> = {};
  for (const [k, text] of Object.entries(bag as Record<string, unknown>)) {
    if (typeof text === 'string' && !Object.hasOwn(out, k)) out[k] = JSON.parse(text);
    else kept[k] = text;
  }
  if (Object.keys(kept).length > 0) out.$propertyBag = kept;
  return out;
}

/** Throws with both values when they differ, so a failing property shows what changed. */
export function expectRoundTrip(actual: unknown, expected: unknown): void {
  const d = difference(actual, expected);
  if (d)
    throw new Error(
      `round trip differs at ${d}\nexpected: ${JSON.stringify(expected)}\nactual:   ${JSON.stringify(actual)}`,
    );
}

/** Unknown extra properties: keys no schema defines, with small JSON values. */
export function extras(): fc.Arbitrary<Record<string, unknown>> {
  const key = fc
    .string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abcdefghij0123456789'.split('')) })
    .map((s) => `zz${s}`);
  const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean());
  const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(key, leaf, { maxKeys: 2 }));
  return fc.dictionary(key, value, { maxKeys: 2 });
}

/** An object arbitrary with unknown extra properties merged in (seed 000 round trips must keep them). */
export function withExtras<T extends object>(record: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.tuple(record, extras()).map(([r, x]) => ({ ...x, ...r }));
}

const goldenRoot = join(dirname(fileURLToPath(import.meta.url)), 'golden');

/**
 * Compares `value` with the committed golden file `name` (under test/lib/conversion/golden). A missing
 * or different file fails, unless UPDATE_GOLDEN=1, which rewrites it.
 */
export function expectGolden(name: string, value: unknown): void {
  const path = join(goldenRoot, name);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`golden file ${path} is missing: run the tests with UPDATE_GOLDEN=1 and review it`);
  }
  if (expected !== text) throw new Error(`differs from golden file ${path}:\n${text}`);
}
