import { isObject, type PathKey, setKey } from './checks.ts';
import { ConversionError, WrongType } from './errors.ts';

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

  /**
   * The value stored for `name`, parsed, or undefined. `$propertyBag` is user-writable, so its text may be
   * malformed: such an entry reads as absent (as {@link recall} treats it) and stays in the bag unchanged,
   * so that no hook trips over it and nothing is lost.
   */
  get(name: string): unknown {
    const text = Object.hasOwn(this.data, name) ? this.data[name] : undefined;
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** Removes `name` from the bag (after a hook has placed its value elsewhere). */
  remove(name: string): void {
    delete this.data[name];
  }

  /** Stores `value` under `name`. */
  put(name: string, value: unknown): void {
    setKey(this.data, name, JSON.stringify(value));
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
    setKey(out, key, text);
  }
  return out;
}

/**
 * Stashes a value the destination cannot hold (seed 000), creating the bag on first use.
 *
 * A bag entry under the same name is overwritten: when an object carries a stale bag entry under a name
 * its version also types (a user wrote one, or an older conversion left it), the typed value wins and the
 * stale entry is gone. That is the one place a bag entry may disappear, by design: the typed field is what
 * the user sees and edits at that version, so it is the current value.
 */
export function stash(bag: PropertyBagData | undefined, name: string, value: unknown): PropertyBagData {
  const out = bag ?? {};
  setKey(out, name, JSON.stringify(value));
  return out;
}

/**
 * Takes `name` out of the bag if present under exactly that name (bag keys are written under canonical
 * property names, so an extra `Identity` never becomes a typed `identity`) and `convert` accepts it:
 * `convert` is the destination type's generated conversion onto itself, which checks every nested value.
 * A value it rejects (a {@link ConversionError}) or malformed JSON text stays in the bag, whole, so that
 * nothing is lost and no later step trips over it; returns undefined then.
 */
export function recall<T>(
  bag: PropertyBagData,
  name: string,
  path: string,
  key: PathKey,
  convert: (value: unknown, path: string, key: PathKey) => T,
): T | undefined {
  if (!Object.hasOwn(bag, name)) return undefined;
  let value: T;
  try {
    value = convert(JSON.parse(bag[name] as string), path, key);
  } catch (error) {
    if (error instanceof ConversionError || error instanceof SyntaxError) return undefined;
    throw error;
  }
  delete bag[name];
  return value;
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
