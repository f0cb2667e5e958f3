import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  type ArmFields,
  type ArmLayout,
  type ArmObject,
  type ArmResolvers,
  type ArmValue,
  armBody,
  armBodyParts,
  defaultAzureName,
  UnresolvedReferenceError,
  UnsendableUnionError,
  unplaced,
} from '../lib/conversion/arm.ts';
import { setKey } from '../lib/conversion/checks.ts';
import { bagKey, encodeBagValue } from '../lib/conversion/property-bag.ts';
import type { KubeObject } from '../lib/conversion/resource.ts';
import { installedGeneratedCrds } from '../lib/crds/generated-crds.ts';
import { parseJson } from '../lib/json/parse-json.ts';

/**
 * The seed of every property test in this process: ASO_FC_SEED when set (to replay a failure), else a
 * fresh one, printed so that any run can be replayed exactly.
 */
export const propertySeed = process.env.ASO_FC_SEED
  ? Number(process.env.ASO_FC_SEED)
  : Math.floor(Math.random() * 0x7fffffff);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: propertySeed });
console.log(`property tests: seed ${propertySeed} (replay with ASO_FC_SEED=${propertySeed})`);

/** Property-test runs per spoke round-trip test; CI may raise or lower it with ASO_FC_RUNS. */
export const roundTripRuns = Number(process.env.ASO_FC_RUNS ?? 300);

/** Runs per reliability pair: fewer, since there are many pairs and the check is only "does not throw". */
export const reliabilityRuns = Math.max(10, Math.floor(roundTripRuns / 6));

/** Runs per storage round trip (old storage -> hub -> old storage). */
export const storageRuns = Math.max(10, Math.floor(roundTripRuns / 3));

/** Runs per read-modify-write test (hub -> old version -> pruned by its CRD schema -> hub). */
export const rmwRuns = Math.max(10, Math.floor(roundTripRuns / 10));

/** Runs per ARM payload test. */
export const armRuns = Math.max(10, Math.floor(roundTripRuns / 6));

/** Relative tolerance for floats (seed 000: float64 matches within tolerance). */
const tolerance = 1e-9;

/**
 * The property names each generated object's type defines, keyed by the object: recorded by the
 * arbitraries ({@link withExtras}, {@link typed}) so that {@link difference} knows which keys of an
 * expected object are typed and which are unknown extras.
 */
const ownNames = new WeakMap<object, ReadonlySet<string>>();

/**
 * The properties of each generated object that are Go value fields in the operator's type (`goValues` of
 * its shape), where a zero value (`""`, `0`, `false`) on one side and nothing on the other are the same to
 * the operator: left out under `omitempty`, written when unset without it (an empty struct, `{}`, is
 * judged by `goEmptyOnOneSide` wherever it is).
 */
const goValueNames = new WeakMap<object, ReadonlySet<string>>();

/** Records that `names` of `object` are Go value fields; returns the object. */
export function goValued<T extends object>(object: T, names: readonly string[]): T {
  goValueNames.set(object, new Set(names));
  return object;
}

/** Records that `object`'s type defines exactly the properties `own`; returns the object. */
export function typed<T extends object>(object: T, own: readonly string[]): T {
  ownNames.set(object, new Set(own));
  return object;
}

/**
 * Deep equality for round trips: strings, booleans and integers exactly, other numbers within tolerance,
 * objects and arrays recursively. Returns the first differing JSON path, or undefined when equal.
 *
 * Comparison is strict, with one normalisation of the expected side: a conversion down to an API version
 * keeps what that version cannot type in its `$propertyBag` (property-bag.ts), so for an expected object
 * whose type is known ({@link typed}), each key the type does not define is expected inside
 * `$propertyBag` (its JSON text parsed), not as a plain key. A value the type does define must come back
 * in its typed field: one that comes back in the bag is a difference. Bag entries of both sides are
 * compared parsed (the text of unparsable ones as is); inside an entry, whose value no type of the version
 * describes, nested `$propertyBag` entries count as the properties they hold (`inBag`).
 */
export function difference(
  actual: unknown,
  expected: unknown,
  path = '$',
  inBag = false,
): string | undefined {
  if (actual instanceof BagText || expected instanceof BagText)
    return bagTextDifference(actual, expected, path);
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Number.isInteger(expected)) return actual === expected ? undefined : path;
    return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)) ? undefined : path;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${path}[${i}]`, inBag);
      if (d) return d;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return path;
    const own = inBag ? undefined : ownNames.get(expected);
    const e = inBag
      ? unbag(expected as Record<string, unknown>)
      : normalised(expected as Record<string, unknown>, own);
    const a = inBag
      ? unbag(actual as Record<string, unknown>)
      : normalised(actual as Record<string, unknown>, undefined);
    const keys = new Set([...Object.keys(a), ...Object.keys(e)]);
    for (const k of [...keys].sort()) {
      const at = `${path}.${k}`;
      if (k === '$propertyBag' && own !== undefined) {
        // A bag on one side only may hold nothing but Go empty values, which the other side never stashes.
        const d = bagDifference(
          (a[k] ?? {}) as Record<string, unknown>,
          (e[k] ?? {}) as Record<string, unknown>,
          at,
        );
        if (d) return d;
        continue;
      }
      if (Object.hasOwn(a, k) !== Object.hasOwn(e, k)) {
        if (goEmptyOnOneSide(a, e, k)) continue;
        if (goValueNames.get(expected)?.has(k) && isGoZero(Object.hasOwn(a, k) ? a[k] : e[k])) continue;
        return at;
      }
      const d = difference(a[k], e[k], at, inBag);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(actual, expected) || actual === expected ? undefined : path;
}

/**
 * The object as compared: for a typed one (`own` known), keys outside `own` moved into `$propertyBag`
 * and bag entries parsed; otherwise as is, with a well-formed `$propertyBag`'s entries parsed.
 */
function normalised(
  object: Record<string, unknown>,
  own: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  const rawBag = object.$propertyBag;
  const bagShaped = typeof rawBag === 'object' && rawBag !== null && !Array.isArray(rawBag);
  if (own === undefined && !bagShaped) return object;
  const out: Record<string, unknown> = Object.create(null);
  const bag: Record<string, unknown> = Object.create(null);
  let hasBag = false;
  if (bagShaped) {
    for (const [k, text] of Object.entries(rawBag as Record<string, unknown>)) {
      setKey(bag, k, parsed(text));
      hasBag = true;
    }
  }
  for (const k of Object.keys(object)) {
    if (k === '$propertyBag') {
      if (!bagShaped) out[k] = object[k];
    } else if (own === undefined || own.has(k)) setKey(out, k, object[k]);
    else {
      // An extra goes into the bag as a property would: under its bag key, in the operator's encoding.
      // An undefined extra has no JSON text: it is expected in the bag as undefined, never found there.
      const value = object[k];
      setKey(bag, bagKey(k), value === undefined ? undefined : parsed(encodeBagValue(value)));
      hasBag = true;
    }
  }
  if (hasBag) out.$propertyBag = bag;
  return out;
}

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

/**
 * Whether `k`, on one side only, is a Go empty value the operator treats so: an expected empty list or map
 * the actual side left out (every list and map of its API types is tagged `omitempty`, so a conversion
 * writes none empty, nor stashes one), or an actual `{}` the expected side lacks (a struct field that is no
 * pointer, such as an identity's `reference`, is written when unset). Which struct fields are values, and
 * which empty objects are maps, the differential against the operator's own code holds convert() to.
 */
function goEmptyOnOneSide(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
  k: string,
): boolean {
  const [value, left] = Object.hasOwn(actual, k) ? [actual[k], 'expected'] : [expected[k], 'actual'];
  if (Array.isArray(value)) return left === 'actual' && value.length === 0;
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof BagText) &&
    Object.keys(value).length === 0
  );
}

/** The zero value of a Go string, number or bool. */
function isGoZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

/** Compares two normalised bags entry by entry, values strictly (they are untyped JSON). */
function bagDifference(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
  path: string,
): string | undefined {
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  for (const k of [...keys].sort()) {
    const at = `${path}[${JSON.stringify(k)}]`;
    if (Object.hasOwn(actual, k) !== Object.hasOwn(expected, k)) {
      if (goEmptyOnOneSide(actual, expected, k)) continue;
      return at;
    }
    const d = difference(actual[k], expected[k], at, true);
    if (d) return d;
  }
  return undefined;
}

/**
 * A nested bag entry's text with its parse. The operator stores a string raw, so text that also reads as
 * JSON (`0`) is either that string or that value: it matches both, as the operator's own reading would.
 */
class BagText {
  readonly text: string;
  readonly value: unknown;
  constructor(text: string, value: unknown) {
    this.text = text;
    this.value = value;
  }
}

function bagText(text: string): unknown {
  const value = parsed(text);
  return value === text ? text : new BagText(text, value);
}

function bagTextDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  const a = actual instanceof BagText ? actual : undefined;
  const e = expected instanceof BagText ? expected : undefined;
  if (a && e) return a.text === e.text ? undefined : difference(a.value, e.value, path, true);
  if (a) return expected === a.text ? undefined : difference(a.value, expected, path, true);
  if (e) return actual === e.text ? undefined : difference(actual, e.value, path, true);
  return undefined;
}

/**
 * A value inside a bag entry, as compared: its own `$propertyBag` entries read as plain properties. A
 * bag entry is untyped at its version, so a value stashed whole (a hub object with nested bags of its own)
 * carries the same information as the plain keys it came from.
 */
function unbag(object: Record<string, unknown>): Record<string, unknown> {
  const bag = object.$propertyBag;
  const bagShaped = typeof bag === 'object' && bag !== null && !Array.isArray(bag);
  // Keys as bag keys on both sides: a nested extra is stashed under its bag key (`zz` as `Zz`).
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(object))
    if (k !== '$propertyBag' || !bagShaped) setKey(out, k === '$propertyBag' ? k : bagKey(k), object[k]);
  if (!bagShaped) return out;
  const kept: Record<string, unknown> = {};
  for (const [k, text] of Object.entries(bag as Record<string, unknown>)) {
    if (typeof text === 'string' && !Object.hasOwn(out, k)) setKey(out, k, bagText(text));
    else setKey(kept, k, text);
  }
  if (Object.keys(kept).length > 0) out.$propertyBag = kept;
  return out;
}

/**
 * Throws when a value of `expected` is missing from `actual`, typed or in a `$propertyBag`: both sides are
 * compared with every bag entry lifted to the property it holds (its JSON text parsed; a string as it is)
 * and every key spelt as a bag key (the Go field name), as a bag does not keep a property's spelling.
 * For a version only an earlier release served, whose round trip through the hub keeps some values in
 * nested bags where that release's compat types had them typed (removed-versions-vs-operator.test.ts).
 */
export function expectValuesKept(actual: unknown, expected: unknown): void {
  expectRoundTrip(liftedBags(actual), liftedBags(expected));
}

function liftedBags(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(liftedBags);
  // A bag keeps a string as it is and any other value as its JSON text, so a string that reads as a JSON
  // number, boolean or null is compared as that value, on both sides.
  if (!isRecord(value)) return typeof value === 'string' ? primitiveOf(parsed(value), value) : value;
  // A bag key is the operator's Go field name (bagKey), whatever the property's spelling: every key is
  // compared as that.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    if (k !== '$propertyBag' && !Object.hasOwn(out, bagKey(k))) setKey(out, bagKey(k), liftedBags(v));
  const bag = value.$propertyBag;
  if (isRecord(bag))
    for (const [key, text] of Object.entries(bag)) {
      if (Object.hasOwn(out, key) || typeof text !== 'string') continue;
      const held = parsed(text);
      setKey(
        out,
        key,
        typeof held === 'object' && held !== null ? liftedBags(held) : primitiveOf(held, text),
      );
    }
  // What the arbitraries recorded of the object, renamed alike: its Go value fields; and, every extra lifted
  // beside the typed properties, all its names as its own.
  if (ownNames.has(value)) ownNames.set(out, new Set(Object.keys(out)));
  const goValues = goValueNames.get(value);
  if (goValues) goValueNames.set(out, new Set([...goValues].map(bagKey)));
  return out;
}

/** `text`, read as `value` ({@link parsed}), as that value when it is a number, boolean or null; else as it is. */
function primitiveOf(value: unknown, text: string): unknown {
  return value === null || typeof value === 'number' || typeof value === 'boolean' ? value : text;
}

/** Throws with both values when they differ, so a failing property shows what changed. */
export function expectRoundTrip(actual: unknown, expected: unknown): void {
  const d = difference(actual, expected);
  if (d)
    throw new Error(
      `round trip differs at ${d}\nexpected: ${JSON.stringify(expected)}\nactual:   ${JSON.stringify(actual)}`,
    );
}

/**
 * `value` without the properties at `paths` (`spec.x`, `spec.$propertyBag.Key`), an object left empty by that
 * removal dropped too: what a hook's operator step is known to lose, left out of a comparison.
 */
export function withoutPaths(value: unknown, paths: readonly string[]): unknown {
  const copy = copyKeepingRecords(value);
  for (const path of paths) {
    const keys = path.split('.');
    const parents: Record<string, unknown>[] = [];
    let at: unknown = copy;
    for (const key of keys.slice(0, -1)) {
      if (!isRecord(at)) break;
      parents.push(at);
      at = at[key];
    }
    if (!isRecord(at) || parents.length !== keys.length - 1) continue;
    delete at[keys[keys.length - 1] as string];
    // A bag emptied by the removal is no bag at all, as the conversion writes none.
    for (let i = parents.length - 1; i >= 0 && isRecord(at) && Object.keys(at).length === 0; i--) {
      delete (parents[i] as Record<string, unknown>)[keys[i] as string];
      at = parents[i];
    }
  }
  return copy;
}

/**
 * A deep copy of a JSON value that keeps what the arbitraries recorded of each object (its type's own
 * names, its Go value fields), which `structuredClone` would drop.
 */
function copyKeepingRecords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyKeepingRecords);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) setKey(out, k, copyKeepingRecords(v));
  const own = ownNames.get(value);
  if (own) ownNames.set(out, own);
  const goValues = goValueNames.get(value);
  if (goValues) goValueNames.set(out, goValues);
  return out;
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
  // A key whose bag key is a property's (`Properties_type` beside `properties_type`) would land on that
  // property's bag entry: to the operator, whose JSON names match case-insensitively, it is that property.
  const takenBagKeys = new Set([...taken].map((k) => bagKey(k)));
  const free = (k: string): boolean => !taken.has(k) && !takenBagKeys.has(bagKey(k));
  const key = anyKey(names).filter(free);
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
  // A `$propertyBag` as a previous conversion left it: entries under names no version types (`zz...`,
  // case variants, `__proto__`), so that copying an existing bag through every step is exercised.
  const bagEntryKey = anyKey([...new Set(names.map((n) => n.toUpperCase()))]).filter(free);
  const bag = objectOf(
    bagEntryKey,
    value.map((v) => JSON.stringify(v)),
    2,
  );
  return fc.tuple(objectOf(key, value, 2), bag).map(([plain, entries]) => {
    const inBag = Object.keys(entries).filter((k) => !Object.hasOwn(plain, k));
    if (inBag.length === 0) return plain;
    const data: Record<string, unknown> = {};
    for (const k of inBag) setKey(data, k, entries[k]);
    return { ...plain, $propertyBag: data };
  });
}

/** An object arbitrary with unknown extra properties merged in (seed 000 round trips must keep them). */
export function withExtras<T extends object>(
  record: fc.Arbitrary<T>,
  names: readonly string[],
  own: readonly string[],
): fc.Arbitrary<T> {
  return fc.tuple(record, extras(names, own)).map(([r, x]) => {
    const out = typed({ ...x, ...r }, own);
    const goValues = goValueNames.get(r);
    if (goValues) goValueNames.set(out, goValues);
    return out;
  });
}

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const goldenRoot = join(repoRoot, 'test', 'lib', 'conversion', 'golden');

type Schema = Record<string, unknown>;

/** The `openAPIV3Schema` of one version of a kind, from the generated CRDs (generated/crds). */
export function crdSchema(group: string, kind: string, version: string): Schema {
  const crd = installedGeneratedCrds()?.find(group, kind);
  const schema = crd?.document().spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema;
  if (!schema) throw new Error(`no CRD schema for ${kind}.${group} ${version}`);
  return schema;
}

/**
 * The object as the API server stores it under a structural schema: every field the schema does not
 * declare removed, at every depth (metadata, which the server handles itself, kept as is).
 */
export function pruneToSchema(value: unknown, schema: Schema, root = true): unknown {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return value;
  if (Array.isArray(value)) {
    const items = schema.items as Schema | undefined;
    return items ? value.map((v) => pruneToSchema(v, items, false)) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const properties = schema.properties as Record<string, Schema> | undefined;
  const additional = schema.additionalProperties as Schema | boolean | undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (root && k === 'metadata') setKey(out, k, v);
    else if (properties && Object.hasOwn(properties, k))
      setKey(out, k, pruneToSchema(v, properties[k]!, false));
    else if (additional === true) setKey(out, k, v);
    else if (typeof additional === 'object') setKey(out, k, pruneToSchema(v, additional, false));
  }
  // The server keeps a Go value field's zero as it is: the pruned object's such fields are the same ones.
  const goValues = goValueNames.get(value);
  if (goValues) goValueNames.set(out, goValues);
  return out;
}

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

/**
 * Fails when the spec or status of `object` holds a `$propertyBag` at any depth: an object converted to an
 * API version carries none there, as with the operator, whose API versions declare no bag. (Unknown keys
 * at the root are the API server's business and are copied as they are.)
 */
export function expectNoBags(object: Record<string, unknown>): void {
  bagFree(object.spec, 'spec');
  bagFree(object.status, 'status');
}

function bagFree(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) bagFree(v, `${path}[${i}]`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$propertyBag') throw new Error(`a $propertyBag at ${path}: ${JSON.stringify(v)}`);
      bagFree(v, `${path}.${k}`);
    }
  }
}

/** Every name held in any `$propertyBag` of an object, at any depth (bag values searched too). */
export function bagNames(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) bagNames(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$propertyBag' && typeof v === 'object' && v !== null) {
        for (const [name, text] of Object.entries(v)) {
          out.push(name);
          if (typeof text === 'string') bagNames(parseJson(text), out);
        }
      } else bagNames(v, out);
    }
  }
  return out;
}

/**
 * What the generated ARM payload tests let the caller resolve: an object a reference names, and a config
 * map key, each to a value that says where it came from, so the expected body can be predicted.
 */
export const testResolvers: ArmResolvers = {
  armIdOf: (ref) => `resolved:${ref.group ?? ''}/${ref.kind ?? ''}/${ref.name}`,
  configMapValue: (ref) => `configmap:${ref.name}/${ref.key}`,
};

/**
 * Checks the ARM payload of an object (generated tests feed objects converted from random hub objects, so
 * they carry bags at every depth): azureName defaults to metadata.name (on the one leaf of a oneOf root),
 * the body carries that name, and the body flattened (root keys and `properties` merged) equals the spec
 * without `azureName`, `owner`, `operatorSpec` and `$propertyBag` at any depth, and with the operator's
 * transformations undone by their naming rule: `<x>Reference` sent as `<x>Id` (or `<x>` where the layout says
 * ARM names it so; its armId, or the object it names resolved), a list of references as ARM's list of IDs
 * (only whole), `<x>FromConfig` as `<x>` (over `<x>` when both are set), secret references never, and a
 * `userAssignedIdentities` list as ARM's map keyed by ARM ID. A reference naming nothing (neither armId nor
 * name) must fail the body with {@link UnresolvedReferenceError} naming exactly those spec paths, and the
 * same references unresolvable by the caller must fail it too.
 */
export function expectArmPayload(object: KubeObject, layout: ArmLayout): void {
  const defaulted = defaultAzureName(object, layout);
  const spec = defaulted.spec as Record<string, unknown>;
  const leaf =
    layout.kind === 'plain' ? undefined : layout.leaves.find((l) => spec[l.property] !== undefined);
  const holder = (leaf ? spec[leaf.property] : spec) as Record<string, unknown>;
  const at = leaf ? `spec.${leaf.property}` : 'spec';
  // A oneOf root holds the name beside its leaves, as a plain spec does; a fixed-name kind has none.
  const fixedName = layout.kind === 'plain' ? layout.fixedName : undefined;
  if (fixedName !== undefined && spec.azureName !== undefined)
    throw new Error(`azureName set on a resource with the fixed name ${fixedName}: ${JSON.stringify(spec)}`);
  const expected: Record<string, unknown> = {};
  const unresolved: string[] = [];
  const named: string[] = [];
  // A name read from a config map (PostgreSQL's administrators) is not defaulted: the body's name is the
  // config map's value, or none when the reference names no key.
  const fromConfig =
    fixedName === undefined && !spec.azureName && spec.azureNameFromConfig !== undefined
      ? spec.azureNameFromConfig
      : undefined;
  let name = fixedName ?? spec.azureName;
  if (fromConfig !== undefined) {
    const at = 'spec.azureNameFromConfig';
    if (isRecord(fromConfig) && typeof fromConfig.name === 'string' && typeof fromConfig.key === 'string') {
      named.push(at);
      name = testResolvers.configMapValue?.({ name: fromConfig.name, key: fromConfig.key }, at);
    } else {
      unresolved.push(at);
      name = undefined;
    }
  } else if (typeof name !== 'string' || name === '')
    throw new Error(`azureName not defaulted: ${JSON.stringify(spec)}`);
  // operatorSpec is for the operator alone: like azureName and owner it never reaches Azure.
  const local = new Set(['azureName', 'owner', 'operatorSpec', '$propertyBag', 'azureNameFromConfig']);
  // A discriminated union is sent as its first option set; with none set, nothing can be sent at all.
  const unsendable: string[] = [];
  const chosen = withFirstOptions(
    holder,
    { object: '' },
    { ...layout.objects, '': fields0(layout, leaf)?.values ?? {} },
    at,
    unsendable,
  ) as Record<string, unknown>;
  if (unsendable.length > 0) {
    let error: unknown;
    try {
      armBodyParts(defaulted, layout, testResolvers);
    } catch (e) {
      error = e;
    }
    if (!(error instanceof UnsendableUnionError) || !unsendable.includes(error.path))
      throw new Error(
        `expected UnsendableUnionError at one of ${JSON.stringify(unsendable)}, got ${String(error)}`,
      );
    return;
  }
  armView(
    Object.fromEntries(Object.entries(chosen).filter(([k]) => !local.has(k))),
    at,
    {
      unresolved,
      named,
      secrets: secretNames(layout),
      references: referenceArmNames(layout),
      referenceNames: referencePropertyNames(layout),
      referenceLists: referenceListNames(layout),
    },
    expected,
  );
  const parts = armBodyParts(defaulted, layout, testResolvers);
  // The body names a map's key as `["key"]`, the view (which cannot tell maps from objects) as `.key`.
  const plain = (path: string) =>
    path.replace(/\[("(?:[^"\\]|\\.)*")\]/g, (_, key: string) => `.${JSON.parse(key) as string}`);
  const sameList = (a: readonly string[], b: readonly string[]) =>
    JSON.stringify([...a].map(plain).sort()) === JSON.stringify([...b].map(plain).sort());
  if (!sameList(parts.unresolved, unresolved))
    throw new Error(
      `unresolved references ${JSON.stringify(parts.unresolved)}, expected ${JSON.stringify(unresolved)}`,
    );
  if (unresolved.length > 0 || named.length > 0) {
    // Without the caller's resolvers, a reference by name is unresolved as well: the body says so.
    let error: unknown;
    try {
      armBody(defaulted, layout);
    } catch (e) {
      error = e;
    }
    if (!(error instanceof UnresolvedReferenceError) || !sameList(error.paths, [...unresolved, ...named]))
      throw new Error(
        `expected UnresolvedReferenceError for ${JSON.stringify([...unresolved, ...named])}, got ${String(error)}`,
      );
  }
  // The view has every property where the layout rule puts it: a placed one (`x-arm-path`) is moved back.
  const body = unplacedBody(parts.body, fields0(layout, leaf), layout.objects ?? {}, holder);
  if (body.name !== name) throw new Error(`ARM body name ${JSON.stringify(body.name)}, expected ${name}`);
  const flat: Record<string, unknown> = {};
  // A spec whose own `properties` sits at ARM's root (Key Vault's) is sent as it is, not re-nested.
  const fields = leaf ? leaf.spec : layout.kind === 'plain' ? layout.spec : undefined;
  const nests = !fields?.root.includes('properties');
  for (const [k, v] of Object.entries(body))
    if (k !== 'name' && (k !== 'properties' || !nests)) setKey(flat, k, v);
  if (nests && body.properties !== undefined) {
    if (typeof body.properties !== 'object' || body.properties === null)
      throw new Error(`ARM body properties is not an object: ${JSON.stringify(body.properties)}`);
    for (const [k, v] of Object.entries(body.properties)) {
      if (Object.hasOwn(flat, k)) throw new Error(`ARM body has ${k} both at the root and in properties`);
      setKey(flat, k, v);
    }
  }
  // Which empty values the operator's encoder writes (null, [], {}) is held against its own code by the ARM
  // differential; this oracle checks where each value goes.
  const d = difference(withoutEmptyValues(flat), withoutEmptyValues(expected));
  if (d)
    throw new Error(
      `ARM body differs from the spec at ${d}\nspec: ${JSON.stringify(expected)}\nbody: ${JSON.stringify(body)}`,
    );
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A value without its empty values (`null`, `[]`, `{}`) at any depth, those left empty by it too; an empty
 * element of a list is `null`.
 */
function withoutEmptyValues(value: unknown): unknown {
  const isEmpty = (v: unknown) =>
    v === null || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
  if (Array.isArray(value))
    return value.map((element) => {
      const kept = withoutEmptyValues(element);
      return isEmpty(kept) ? null : kept;
    });
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const kept = withoutEmptyValues(inner);
    if (!isEmpty(kept)) setKey(out, key, kept);
  }
  return out;
}

/** The first option of a union value that is set, in the order the union's type lists them. */
function firstOptionOf(value: Record<string, unknown>, options: ArmObject): string | undefined {
  return Object.keys(options).find((key) => value[key] !== undefined && value[key] !== null);
}

/**
 * `value` (of the given shape) with every discriminated union holding only its first option set, the one the
 * operator sends; the paths of unions with no option set are added to `unsendable`.
 */
function withFirstOptions(
  value: unknown,
  shape: ArmValue,
  objects: Readonly<Record<string, ArmObject>>,
  path: string,
  unsendable: string[],
): unknown {
  const inner = unplaced(shape);
  if (inner === 0) return value;
  if ('oneOf' in inner) {
    const options = objects[inner.oneOf];
    if (!isRecord(value) || !options) return value;
    const key = firstOptionOf(value, options);
    if (key === undefined) {
      unsendable.push(path);
      return value;
    }
    return {
      [key]: withFirstOptions(value[key], options[key] as ArmValue, objects, `${path}.${key}`, unsendable),
    };
  }
  if ('object' in inner) {
    const type = objects[inner.object];
    if (!isRecord(value) || !type) return value;
    const out = { ...value };
    for (const [key, placed] of Object.entries(type))
      if (out[key] !== undefined)
        out[key] = withFirstOptions(out[key], placed, objects, `${path}.${key}`, unsendable);
    return out;
  }
  if ('array' in inner)
    return Array.isArray(value)
      ? value.map((e, i) => withFirstOptions(e, inner.array, objects, `${path}[${i}]`, unsendable))
      : value;
  if ('map' in inner) {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      setKey(out, k, withFirstOptions(v, inner.map, objects, `${path}[${JSON.stringify(k)}]`, unsendable));
    return out;
  }
  return value;
}

function fields0(layout: ArmLayout, leaf: { spec: ArmFields } | undefined): ArmFields | undefined {
  return leaf ? leaf.spec : layout.kind === 'plain' ? layout.spec : undefined;
}

/** The ARM name a transformed value goes under (its own), or `key` for a value sent as it is. */
function sentName(key: string, shape: unknown): string {
  if (!isRecord(shape)) return key;
  for (const how of ['reference', 'references', 'secret', 'fromConfig', 'identities'])
    if (typeof shape[how] === 'string') return shape[how] as string;
  return key;
}

/** Removes and returns the value at a dotted path below `root`, and any object it leaves empty. */
function takeDotted(root: Record<string, unknown>, path: string): unknown {
  const keys = path.split('.');
  const parents: Record<string, unknown>[] = [root];
  for (const key of keys.slice(0, -1)) {
    const next = parents[parents.length - 1]?.[key];
    if (!isRecord(next)) return undefined;
    parents.push(next);
  }
  const last = keys[keys.length - 1] as string;
  const holder = parents[parents.length - 1] as Record<string, unknown>;
  if (!Object.hasOwn(holder, last)) return undefined;
  const value = holder[last];
  delete holder[last];
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i] as object).length > 0) break;
    delete (parents[i - 1] as Record<string, unknown>)[keys[i - 1] as string];
  }
  return value;
}

/**
 * An ARM body with each placed property (`{ at, value }` in the layout) moved back to where the layout rule
 * without placements sends it, at every depth: the view the spec is compared with knows nothing of where the
 * operator's ARM types put a property, only what is sent. That placements go where the operator sends them
 * is the ARM differential's to prove (test/differential/arm-vs-operator.test.ts).
 */
function unplacedBody(
  body: Record<string, unknown>,
  fields: ArmFields | undefined,
  objects: Readonly<Record<string, ArmObject>>,
  spec: Record<string, unknown>,
): Record<string, unknown> {
  const out = structuredClone(body);
  if (!fields) return out;
  const values = fields.values ?? {};
  const properties = (): Record<string, unknown> => {
    if (!isRecord(out.properties)) out.properties = {};
    return out.properties as Record<string, unknown>;
  };
  for (const [key, shape] of Object.entries(values)) {
    // A secret is never in the body: what its path holds is the plain property of that name.
    if (shape === 0 || !('at' in shape) || (shape.value !== 0 && 'secret' in shape.value)) continue;
    const value = takeDotted(out, shape.at);
    if (value === undefined) continue;
    const name = sentName(key, shape.value);
    if (fields.root.includes(key)) setKey(out, name, value);
    else setKey(properties(), name, value);
  }
  for (const [key, shape] of Object.entries(values)) {
    const inner = unplaced(shape as ArmValue);
    const holder = fields.root.includes(key) ? out : isRecord(out.properties) ? out.properties : undefined;
    const name = sentName(key, inner);
    if (holder && holder[name] !== undefined)
      setKey(holder, name, unplacedValue(holder[name], inner, objects, spec[key]));
  }
  return out;
}

function unplacedValue(
  value: unknown,
  shape: ArmValue,
  objects: Readonly<Record<string, ArmObject>>,
  spec: unknown,
): unknown {
  if (shape === 0) return value;
  if ('oneOf' in shape) {
    // The body holds the option the spec's union chose, in the union's place: it goes back under its name.
    const options = objects[shape.oneOf];
    const key = isRecord(spec) && options ? firstOptionOf(spec, options) : undefined;
    if (key === undefined || !options) return value;
    const option = unplaced(options[key] as ArmValue);
    return { [key]: unplacedValue(value, option, objects, (spec as Record<string, unknown>)[key]) };
  }
  if ('object' in shape) {
    const type = objects[shape.object];
    if (!isRecord(value) || !type) return value;
    const out: Record<string, unknown> = { ...value };
    for (const [key, placed] of Object.entries(type)) {
      if (placed === 0 || !('at' in placed) || (placed.value !== 0 && 'secret' in placed.value)) continue;
      const taken = takeDotted(out, placed.at);
      if (taken !== undefined) setKey(out, sentName(key, placed.value), taken);
    }
    for (const [key, placed] of Object.entries(type)) {
      const inner = unplaced(placed);
      const name = sentName(key, inner);
      if (out[name] !== undefined)
        setKey(out, name, unplacedValue(out[name], inner, objects, isRecord(spec) ? spec[key] : undefined));
    }
    return out;
  }
  if ('array' in shape)
    return Array.isArray(value)
      ? value.map((e, i) =>
          unplacedValue(e, shape.array as ArmValue, objects, Array.isArray(spec) ? spec[i] : undefined),
        )
      : value;
  if ('map' in shape) {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      setKey(out, k, unplacedValue(v, shape.map as ArmValue, objects, isRecord(spec) ? spec[k] : undefined));
    return out;
  }
  return value;
}

/** Every spec property's shape the layout records, at any depth: its types' and the spec's own. */
function* specShapes(layout: ArmLayout): Generator<[string, unknown]> {
  // How each value is sent, wherever it is placed: the naming rule does not depend on the placement.
  for (const type of Object.values(layout.objects ?? {}))
    for (const [name, shape] of Object.entries(type)) yield [name, unplaced(shape)];
  const roots = layout.kind === 'plain' ? [layout.spec] : layout.leaves.map((leaf) => leaf.spec);
  for (const fields of roots)
    for (const [name, shape] of Object.entries(fields.values ?? {})) yield [name, unplaced(shape)];
}

/**
 * The spec property names the layout marks as secrets (at any depth): the one fact the naming rule lacks. A
 * name another property has for a value of its own (Machine Learning's `sas` connection beside the `sas`
 * secret of its credentials) is a secret only below the properties that hold a type with that secret.
 */
type SecretNames = ReadonlyMap<string, 'anywhere' | ReadonlySet<string>>;

function secretNames(layout: ArmLayout): SecretNames {
  const secrets = new Set<string>();
  const others = new Set<string>();
  const inner = (shape: unknown): unknown => (isRecord(shape) && 'at' in shape ? shape.value : shape);
  for (const [name, shape] of specShapes(layout))
    (isRecord(inner(shape)) && 'secret' in (inner(shape) as object) ? secrets : others).add(name);
  const holders = new Map<string, Set<string>>();
  const objectOf = (placed: unknown): string | undefined => {
    const shape = inner(placed);
    if (!isRecord(shape)) return undefined;
    if (typeof shape.object === 'string') return shape.object;
    if (typeof shape.oneOf === 'string') return shape.oneOf;
    return objectOf(shape.array ?? shape.map);
  };
  for (const [name, shape] of specShapes(layout)) {
    const type = objectOf(shape);
    const held = type === undefined ? undefined : layout.objects?.[type];
    for (const [inner, innerShape] of Object.entries(held ?? {}))
      if (isRecord(innerShape) && 'secret' in innerShape)
        holders.set(inner, (holders.get(inner) ?? new Set()).add(name));
  }
  return new Map(
    [...secrets].map((name) => [
      name,
      others.has(name) ? (holders.get(name) ?? new Set<string>()) : 'anywhere',
    ]),
  );
}

/** Whether the spec property `name` at `path` (its holder's path) is a secret reference. */
function isSecret(secrets: SecretNames, name: string, path: string): boolean {
  const where = secrets.get(name);
  if (where === undefined) return false;
  if (where === 'anywhere') return true;
  const parent =
    path
      .replace(/(\[\d+\])+$/, '')
      .split('.')
      .at(-1) ?? '';
  return where.has(parent);
}

/**
 * The ARM names of the layout's references whose ARM property has no `Id` suffix (Kusto's
 * `userIdentityReference` is ARM's `userIdentity`): the naming rule cannot tell those from `<x>Id`.
 */
function referenceArmNames(layout: ArmLayout): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, shape] of specShapes(layout))
    if (isRecord(shape) && typeof shape.reference === 'string' && !/Id$/.test(shape.reference))
      out.set(name, shape.reference);
  return out;
}

/** Every spec property the layout sends as a resolved reference, at any depth. */
function referencePropertyNames(layout: ArmLayout): Set<string> {
  const out = new Set<string>();
  for (const [name, shape] of specShapes(layout))
    if (isRecord(shape) && typeof shape.reference === 'string') out.add(name);
  return out;
}

/** The spec properties the layout sends as lists of resolved references, at any depth, with their ARM names. */
function referenceListNames(layout: ArmLayout): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, shape] of specShapes(layout))
    if (isRecord(shape) && typeof shape.references === 'string') out.set(name, shape.references);
  return out;
}

/** The ARM ID a reference stands for under {@link testResolvers}; records the path when it names nothing. */
function referenceId(
  v: unknown,
  path: string,
  seen: { unresolved: string[]; named: string[] },
): string | undefined {
  // A well-known name (a role's, a private link service's alias) is sent in place of any ID.
  if (isRecord(v) && typeof v.wellKnownName === 'string' && v.wellKnownName !== '') return v.wellKnownName;
  if (isRecord(v) && typeof v.armId === 'string' && v.armId !== '') return v.armId;
  if (isRecord(v) && typeof v.name === 'string' && v.name !== '') {
    seen.named.push(path);
    return testResolvers.armIdOf?.(
      {
        name: v.name,
        group: typeof v.group === 'string' ? v.group : undefined,
        kind: typeof v.kind === 'string' ? v.kind : undefined,
      },
      path,
    );
  }
  seen.unresolved.push(path);
  return undefined;
}

/** The spec as ARM receives it, by the operator's naming rule (see {@link expectArmPayload}). */
function armView(
  value: Record<string, unknown>,
  path: string,
  seen: {
    unresolved: string[];
    named: string[];
    secrets: SecretNames;
    references: ReadonlyMap<string, string>;
    referenceNames: ReadonlySet<string>;
    referenceLists: ReadonlyMap<string, string>;
  },
  out: Record<string, unknown>,
): void {
  const view = (v: unknown, at: string): unknown => {
    if (Array.isArray(v)) return v.map((e, i) => view(e, `${at}[${i}]`));
    if (!isRecord(v)) return v;
    const nested: Record<string, unknown> = {};
    armView(v, at, seen, nested);
    return nested;
  };
  // `<x>FromConfig` and `<x>FromSecret` last: the operator's ConvertToARM assigns them after `<x>`, so they win.
  const last = (key: string) => key.endsWith('FromConfig') || key.endsWith('FromSecret');
  const transformedLast = Object.entries(value).sort(([a], [b]) => Number(last(a)) - Number(last(b)));
  for (const [k, v] of transformedLast) {
    if (k === '$propertyBag' || v === undefined) continue;
    const at = `${path}.${k}`;
    // A name ending in Reference is a reference only where the layout says so (Batch's keyVaultReference
    // is an object of ARM's own, which holds one).
    if ((k === 'reference' || (k.endsWith('Reference') && seen.referenceNames.has(k))) && isRecord(v)) {
      const id = referenceId(v, at, seen);
      const armName =
        seen.references.get(k) ?? (k === 'reference' ? 'id' : `${k.slice(0, -'Reference'.length)}Id`);
      if (id !== undefined) setKey(out, armName, id);
    } else if (seen.referenceLists.has(k)) {
      if (!Array.isArray(v)) {
        seen.unresolved.push(at);
        continue;
      }
      const ids = v.map((entry, i) => referenceId(entry, `${at}[${i}]`, seen));
      // ARM gets the list only whole, or not at all.
      if (ids.every((id) => id !== undefined)) setKey(out, seen.referenceLists.get(k) as string, ids);
    } else if (k.endsWith('FromConfig') && isRecord(v)) {
      const base = k.slice(0, -'FromConfig'.length);
      if (typeof v.name === 'string' && typeof v.key === 'string') {
        seen.named.push(at);
        setKey(out, base, testResolvers.configMapValue?.({ name: v.name, key: v.key }, at));
      } else seen.unresolved.push(at);
    } else if (isSecret(seen.secrets, k, path) && isRecord(v)) {
      // a secret reference: never sent; `<x>FromSecret` replaces a plain `<x>` (secrets come last here)
      const base = /^(.+)FromSecret$/.exec(k)?.[1];
      if (base !== undefined) delete out[base];
    } else if (k === 'userAssignedIdentities' && /identity$/i.test(path) && Array.isArray(v)) {
      // Only a managed identity's list is ARM's map (AKS's pod identities have a list of their own).
      const identities: Record<string, unknown> = {};
      v.forEach((entry, i) => {
        const id = referenceId(isRecord(entry) ? entry.reference : undefined, `${at}[${i}].reference`, seen);
        if (id !== undefined) setKey(identities, id, {});
      });
      setKey(out, k, identities);
    } else setKey(out, k, view(v, at));
  }
}
