import { isObject } from './checks.ts';
import { WrongType } from './errors.ts';

/**
 * `$propertyBag` as stored: property name -> the value's JSON text (aso-conventions.md).
 *
 * Every object type of every version carries one, API versions included, and a conversion down to an API
 * version leaves whatever that version cannot type (properties of other versions, unknown extras) in the
 * object's `$propertyBag`, never as plain keys. Why there and not elsewhere:
 * - plain keys are not in the version's CRD schema, so the API server prunes them from the webhook's
 *   response, and a GET then PUT at an older version would lose hub-only data;
 * - a metadata annotation is never pruned, but it is one flat string per object, far from the values it
 *   describes (paths into arrays break when a user reorders them), and users edit annotations freely;
 *   seed 000 ("Sequestering additional properties away within a property bag ... is more robust than
 *   using separate annotations") rejects it for exactly that reason;
 * - a declared `$propertyBag` (map of string to string) on each object's schema survives pruning, stays
 *   next to the values, and is read back by the way up exactly as the storage variants' bags are.
 */
export type PropertyBagData = Record<string, string>;

/**
 * The property bag as hand-written hooks see it: read, take and put values by property name. Exists so
 * that hooks never handle JSON text themselves and cannot leave the bag in a malformed state.
 */
export class PropertyBag {
  readonly data: PropertyBagData;

  constructor(data: PropertyBagData) {
    this.data = data;
  }

  /** True when the bag holds a value for `name`. */
  has(name: string): boolean {
    return Object.hasOwn(this.data, name);
  }

  /** The value stored for `name`, parsed, or undefined. */
  get(name: string): unknown {
    const text = this.data[name];
    return text === undefined ? undefined : JSON.parse(text);
  }

  /** Removes `name` from the bag (after a hook has placed its value elsewhere). */
  remove(name: string): void {
    delete this.data[name];
  }

  /** Stores `value` under `name`. */
  put(name: string, value: unknown): void {
    this.data[name] = JSON.stringify(value);
  }
}

/** A copy of a source's bag to fill for the destination, after checking its shape. */
export function copyBag(bag: unknown, path: string): PropertyBagData | undefined {
  if (bag === undefined) return undefined;
  if (!isObject(bag)) throw new WrongType(`${path}.$propertyBag`, 'an object of JSON strings', bag);
  const out: PropertyBagData = {};
  for (const key of Object.keys(bag)) {
    const text = bag[key];
    if (typeof text !== 'string')
      throw new WrongType(`${path}.$propertyBag[${JSON.stringify(key)}]`, 'JSON text', text);
    out[key] = text;
  }
  return out;
}

/** Stashes a value the destination cannot hold (seed 000), creating the bag on first use. */
export function stash(bag: PropertyBagData | undefined, name: string, value: unknown): PropertyBagData {
  const out = bag ?? {};
  out[name] = JSON.stringify(value);
  return out;
}

/** Shapes a recalled value must have before it is assigned; anything else stays in the bag. */
export type RecallCheck = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'map';

/**
 * Takes `name` out of the bag if present (exact name first, then case-insensitively) and of the right shape;
 * returns undefined otherwise, leaving the bag untouched so that nothing is lost.
 */
export function recall(bag: PropertyBagData, name: string, check: RecallCheck): unknown {
  let key: string | undefined = Object.hasOwn(bag, name) ? name : undefined;
  if (key === undefined) {
    const lower = name.toLowerCase();
    key = Object.keys(bag).find((k) => k.toLowerCase() === lower);
    if (key === undefined) return undefined;
  }
  const value: unknown = JSON.parse(bag[key] as string);
  if (!fits(value, check)) return undefined;
  delete bag[key];
  return value;
}

function fits(value: unknown, check: RecallCheck): boolean {
  switch (check) {
    case 'string':
    case 'boolean':
      return typeof value === check;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'object':
    case 'map':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
  }
}

/** Stashes every key of `source` that its type does not define (unknown extra properties), in key order. */
export function stashUnknown(
  source: object,
  known: ReadonlySet<string>,
  bag: PropertyBagData | undefined,
): PropertyBagData | undefined {
  let out = bag;
  for (const key in source) {
    if (!known.has(key)) out = stash(out, key, (source as Record<string, unknown>)[key]);
  }
  return out;
}

/** The bag to store: undefined when empty, so that objects without extras stay free of `$propertyBag`. */
export function finishBag(bag: PropertyBagData | undefined): PropertyBagData | undefined {
  if (bag === undefined) return undefined;
  for (const _ in bag) return bag;
  return undefined;
}

/** Runs a hand-written hook with the bag wrapped for it; returns the (possibly new) bag data. */
export function withBag(bag: PropertyBagData | undefined, hook: (bag: PropertyBag) => void): PropertyBagData {
  const data = bag ?? {};
  hook(new PropertyBag(data));
  return data;
}
