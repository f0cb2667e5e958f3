import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { type ArmLayout, armBody, defaultAzureName } from '../../../src/lib/conversion/arm.ts';
import type { KubeObject } from '../../../src/lib/conversion/resource.ts';

/** Property-test runs per spoke round-trip test; CI may raise or lower it with ASO_FC_RUNS. */
export const roundTripRuns = Number(process.env.ASO_FC_RUNS ?? 300);

/** Runs per reliability pair: fewer, since there are many pairs and the check is only "does not throw". */
export const reliabilityRuns = Math.max(10, Math.floor(roundTripRuns / 6));

/** Runs per storage round trip (old storage -> hub -> old storage). */
export const storageRuns = Math.max(10, Math.floor(roundTripRuns / 3));

/** Runs per ARM payload test. */
export const armRuns = Math.max(10, Math.floor(roundTripRuns / 6));

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

/** Sets an own data property, `__proto__` included (a plain assignment would change the prototype). */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A plain object of up to `maxKeys` distinct keys. */
function objectOf(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<unknown>,
  maxKeys: number,
): fc.Arbitrary<Record<string, unknown>> {
  return fc.uniqueArray(fc.tuple(key, value), { maxLength: maxKeys, selector: ([k]) => k }).map((entries) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) setKey(out, k, v);
    return out;
  });
}

/** `type` -> `Type` or `TYPE`: case variants, which must never match a property (names match exactly). */
function caseVariant(name: string): fc.Arbitrary<string> {
  return fc.constantFrom(`${name.charAt(0).toUpperCase()}${name.slice(1)}`, name.toUpperCase());
}

/**
 * Unknown extra properties of one object: keys drawn from `zz...` names, from `names` (every property name
 * of every version of the group: what other versions define), their case variants and `__proto__`, never
 * one of the object's `own` names; values are JSON of any shape (strings, integers, floats, booleans, null,
 * arrays and objects nested a few levels deep).
 */
export function extras(
  names: readonly string[],
  own: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const taken = new Set([...own, '$propertyBag']);
  const zz = fc
    .string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abcdefghij0123456789'.split('')) })
    .map((s) => `zz${s}`);
  const anyKey = (pool: readonly string[]) =>
    pool.length === 0
      ? fc.oneof(zz, fc.constant('__proto__'))
      : fc.oneof(
          zz,
          fc.constantFrom(...pool),
          fc.constantFrom(...pool).chain(caseVariant),
          fc.constant('__proto__'),
        );
  const key = anyKey(names).filter((k) => !taken.has(k));
  const nestedKey = anyKey(names).filter((k) => k !== '$propertyBag');
  const leaf = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.integer(),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(null),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      leaf,
      fc.array(tie('value'), { maxLength: 2 }),
      objectOf(nestedKey, tie('value'), 2),
    ),
  }));
  return objectOf(key, value, 2);
}

/** An object arbitrary with unknown extra properties merged in (seed 000 round trips must keep them). */
export function withExtras<T extends object>(
  record: fc.Arbitrary<T>,
  names: readonly string[],
  own: readonly string[],
): fc.Arbitrary<T> {
  return fc.tuple(record, extras(names, own)).map(([r, x]) => ({ ...x, ...r }));
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

/** The value at `path` (keys and array indexes) of an object, or undefined. */
export function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Every name held in any `$propertyBag` of an object, at any depth (bag values searched too). */
export function bagNames(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) bagNames(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$propertyBag' && typeof v === 'object' && v !== null) {
        for (const [name, text] of Object.entries(v)) {
          out.push(name);
          if (typeof text === 'string') bagNames(JSON.parse(text), out);
        }
      } else bagNames(v, out);
    }
  }
  return out;
}

/**
 * Checks the ARM payload of a random object: azureName defaults to metadata.name (on the one leaf of a
 * oneOf root), and the body carries that name and no owner, azureName or `$propertyBag` at any depth.
 */
export function expectArmPayload(object: KubeObject, layout: ArmLayout): void {
  const defaulted = defaultAzureName(object, layout);
  const spec = defaulted.spec as Record<string, unknown>;
  const holder =
    layout.kind === 'plain'
      ? spec
      : (layout.leaves.map((l) => spec[l.property]).find((v) => v !== undefined) as Record<string, unknown>);
  const name = holder.azureName;
  if (typeof name !== 'string' || name === '')
    throw new Error(`azureName not defaulted: ${JSON.stringify(spec)}`);
  const body = armBody(defaulted, layout);
  if (body.name !== name) throw new Error(`ARM body name ${JSON.stringify(body.name)}, expected ${name}`);
  const properties = (body.properties ?? {}) as Record<string, unknown>;
  for (const key of ['owner', 'azureName'])
    if (Object.hasOwn(body, key) || Object.hasOwn(properties, key))
      throw new Error(`ARM body carries ${key}`);
  if (JSON.stringify(body).includes('"$propertyBag"')) throw new Error('ARM body carries a property bag');
}
