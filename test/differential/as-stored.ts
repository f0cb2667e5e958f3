import { setKey } from '../../src/lib/conversion/checks.ts';
import type { Schema } from './schemas.ts';

/**
 * Random objects as the API server would hand them to the operator's conversion webhook. The generated
 * arbitraries draw from kubectl-aso's schemas, with unknown extras mixed in; the API server, serving the
 * operator's real CRDs, prunes what the version's schema does not define and refuses values of the wrong
 * type, so such an object never reaches the webhook, and the operator's Go decoder fails on it where it
 * would not on any stored object. Feeding both sides what a cluster could hold keeps every disagreement a
 * conversion's, not a decoder's.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isMap(schema: Schema | undefined): boolean {
  return schema?.properties === undefined && typeof schema?.additionalProperties === 'object';
}

function mapValues(schema: Schema | undefined): Schema | undefined {
  return typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/** What a kept value had to lose to fit: counted so a test can say how much of its input was cut. */
export interface Fitting {
  /** Values dropped because the operator's schema gives them another type. */
  wrongType: number;
  /** Strings at a `date-time` position replaced by a timestamp derived from them. */
  timestamps: number;
}

/**
 * `spec` and `status` of a random object cut down to the properties both schemas of its version define
 * (the operator's real CRD, `theirs`, and kubectl-aso's, `ours`), every `$propertyBag` kept whole, values
 * whose JSON type the operator's schema refuses dropped, and strings at `date-time` positions (condition
 * times, a `metav1.Time` in Go) made RFC 3339 timestamps. The object itself is not changed.
 */
export function asStored(
  object: Record<string, unknown>,
  ours: Schema | undefined,
  theirs: Schema | undefined,
  fitting: Fitting = { wrongType: 0, timestamps: 0 },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['apiVersion', 'kind', 'metadata']) if (key in object) setKey(out, key, object[key]);
  for (const part of ['spec', 'status']) {
    if (!Object.hasOwn(object, part)) continue;
    const kept = fitValue(
      object[part],
      propertyOf(ours, part),
      propertyOf(theirs, part),
      fitting,
      true,
      part,
    );
    if (kept !== dropped) setKey(out, part, kept);
  }
  return out;
}

/**
 * A stored object as the API server keeps it after a write at its version: pruned to what the operator's
 * real CRD schema defines (`$propertyBag` included where it declares one), nothing else changed. Used for
 * the objects each side wrote, before the other side reads them.
 */
export function prunedTo(
  object: Record<string, unknown>,
  theirs: Schema | undefined,
): Record<string, unknown> {
  return asStored(object, undefined, theirs, { wrongType: 0, timestamps: 0 });
}

const dropped = Symbol('dropped');

/**
 * `value` fitted to the schemas (`ours` undefined: the operator's alone decides what is kept). Returns
 * {@link dropped} when the value itself cannot be kept.
 */
function fitValue(
  value: unknown,
  ours: Schema | undefined,
  theirs: Schema | undefined,
  fitting: Fitting,
  pruneToOurs: boolean,
  path: string,
): unknown {
  if (theirs === undefined) return dropped;
  if (!typeFits(value, theirs) || !fitsGoUnsigned(value, path)) {
    fitting.wrongType += 1;
    return dropped;
  }
  // Any JSON (the operator's `v1.JSON`): the API server keeps what is inside as written.
  if (theirs['x-kubernetes-preserve-unknown-fields'] === true && theirs.type === undefined) return value;
  if (typeof value === 'string' && theirs.format === 'date-time' && !rfc3339.test(value)) {
    fitting.timestamps += 1;
    return timestampFrom(value);
  }
  if (Array.isArray(value)) {
    const items = value
      .map((item) => fitValue(item, ours?.items, theirs.items, fitting, pruneToOurs, `${path}[]`))
      .filter((item) => item !== dropped);
    return items;
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  const considerOurs = pruneToOurs && ours !== undefined;
  for (const [key, child] of Object.entries(value)) {
    if (isMap(theirs)) {
      const kept = fitValue(
        child,
        considerOurs ? mapValues(ours) : undefined,
        mapValues(theirs),
        fitting,
        considerOurs,
        `${path}{}`,
      );
      if (kept !== dropped) setKey(out, key, kept);
      continue;
    }
    const theirProperty = propertyOf(theirs, key);
    if (theirProperty === undefined) continue;
    if (considerOurs && propertyOf(ours, key) === undefined) continue;
    if (key === '$propertyBag') {
      // A bag is a map of strings: kept whole, entries of any name (the operator copies those it cannot read).
      const bag = fitValue(child, undefined, theirProperty, fitting, false, `${path}.${key}`);
      if (bag !== dropped) setKey(out, key, bag);
      continue;
    }
    const kept = fitValue(
      child,
      considerOurs ? propertyOf(ours, key) : undefined,
      theirProperty,
      fitting,
      considerOurs,
      `${path}.${key}`,
    );
    if (kept !== dropped) setKey(out, key, kept);
  }
  return out;
}

/**
 * Properties the operator's Go types hold as `uint32` although its CRD says `integer` (`format: int32`),
 * by path: its decoder refuses a negative value or one past 2^32 there ("cannot unmarshal number -27 into
 * Go struct field BgpSettings.spec.bgpSettings.asn of type uint32"), so no stored object that reaches its
 * webhook holds one.
 */
const goUnsigned = /^(spec|status)\.(.*\.)?bgpSettings\.asn$/;

function fitsGoUnsigned(value: unknown, path: string): boolean {
  return !(typeof value === 'number' && goUnsigned.test(path) && (value < 0 || value >= 2 ** 32));
}

/** A property's schema; an own key only (`__proto__` must not find Object.prototype). */
function propertyOf(schema: Schema | undefined, key: string): Schema | undefined {
  const properties = schema?.properties;
  return properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
}

function typeFits(value: unknown, schema: Schema): boolean {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    default:
      return value !== null;
  }
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * A whole-second UTC timestamp chosen by the string's hash: the same random string always becomes the
 * same time, so a replayed seed feeds the same input.
 */
function timestampFrom(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return new Date(Date.UTC(2000, 0, 1) + hash * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
