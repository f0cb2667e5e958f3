import { parseJson } from '../json/parse-json.ts';
import { isObject, type PathKey, setKey } from './checks.ts';
import { ConversionError, WrongType } from './errors.ts';

/**
 * `$propertyBag` as stored, in the operator's format (ASO v2.20.0, `v2/pkg/genruntime/property_bag.go`):
 * Go property name (see {@link bagKey}) -> a string value as the raw string, any other value as JSON text.
 * Both sides must agree on it: the operator drops entries it cannot read and strands ours otherwise.
 *
 * As in the operator, only the generated object types of storage variants carry one. A conversion down to
 * an API version, or into one of the operator's runtime types (references, destinations, conditions), drops
 * what the destination cannot type, as the operator's conversions do: a GET and PUT at an old API version
 * loses what only newer versions hold, exactly as with the operator. A caller that must not lose anything
 * silently (manifest conversion, which names each loss) converts with {@link keepingLeftovers}, and finds
 * the leftovers in `$propertyBag`s of the result instead.
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
   * The raw text stored for `name` (the key as the operator writes it, e.g. `MaxSizeBytes`), or undefined.
   * This is the value itself for a string property, which the operator stores unquoted.
   */
  getString(name: string): string | undefined {
    return Object.hasOwn(this.data, name) ? this.data[name] : undefined;
  }

  /**
   * The value stored for `name` of a non-string property, parsed from its JSON text, or undefined.
   * `$propertyBag` is user-writable, so its text may be malformed: such an entry reads as absent (as
   * {@link recall} treats it) and stays in the bag unchanged, so that no hook trips over it and nothing is
   * lost.
   */
  get(name: string): unknown {
    const text = Object.hasOwn(this.data, name) ? this.data[name] : undefined;
    if (text === undefined) return undefined;
    try {
      return parseJson(text);
    } catch {
      return undefined;
    }
  }

  /** Removes `name` from the bag (after a hook has placed its value elsewhere). */
  remove(name: string): void {
    delete this.data[name];
  }

  /** Stores `value` under `name` as the operator would: a string raw, anything else as JSON text. */
  put(name: string, value: unknown): void {
    setKey(this.data, name, encodeBagValue(value));
  }
}

/**
 * The operator's bag key for a property: its Go field name, which ASO's generator forms by capitalising the
 * first letter of the JSON name (`allowedCopyScope` -> `AllowedCopyScope`, `azureName` -> `AzureName`), and
 * the letter after each character a Go name cannot hold, which it drops (Redis's `storage-subscription-id` ->
 * `StorageSubscriptionId`, `odata.type` -> `OdataType`); an underscore goes only before a lower-case letter
 * (a flattened `properties_type` -> `PropertiesType`, but Kusto's `Application_Type` stays as it is). That
 * rule gives the field name of all 48 such JSON names in the operator's v2.20.0 API types.
 */
export function bagKey(jsonName: string): string {
  const joined = jsonName
    .replace(/[-.]+(.)/g, (_, next: string) => next.toUpperCase())
    .replace(/_([a-z])/g, (_, next: string) => next.toUpperCase());
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/**
 * A bag value as `genruntime.PropertyBag.Add` writes it: a string as itself, anything else as JSON text in
 * Go's `encoding/json` spelling, which escapes `<`, `>` and `&` (and U+2028, U+2029) inside strings as
 * `\u003c`, `\u003e`, `\u0026`: the same text the operator stores, so a diff of a stored object shows no change
 * that is not one. Those characters occur in JSON text only inside strings, so escaping them there is safe.
 */
export function encodeBagValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value).replace(goEscaped, goEscape);
}

const goEscaped = /[<>&\u2028\u2029]/g;

function goEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
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
  setKey(out, name, encodeBagValue(value));
  return out;
}

/**
 * Takes a property's value out of the bag under `name`, the operator's key ({@link bagKey}), if `convert`
 * accepts it: `convert` is the destination type's generated conversion onto itself, which checks every
 * nested value. `raw` marks a string-typed destination, whose value the operator stores unquoted (as
 * `PropertyBag.Pull` into a `*string` reads it); otherwise the text is parsed as JSON.
 * A value `convert` rejects (a {@link ConversionError}) or malformed JSON text stays in the bag, whole, so
 * that nothing is lost and no later step trips over it; returns undefined then. The operator's
 * `PropertyBag.Pull` fails the whole conversion there instead. kubectl-aso keeps the value, and manifest
 * conversion names it as a loss: AKS 2024-04-02-preview's list of autoscale profiles rides in 2025-08-01's
 * bag and cannot come back as 2025-10-02-preview's single profile, which the operator refuses.
 */
export function recall<T>(
  bag: PropertyBagData,
  name: string,
  path: string,
  key: PathKey,
  convert: (value: unknown, path: string, key: PathKey) => T,
  raw = false,
): T | undefined {
  if (!Object.hasOwn(bag, name)) return undefined;
  return take(bag, name, raw, (v) => convert(v, path, key));
}

/** Converts the entry under `name` and removes it, or leaves it whole when it does not convert. */
function take<T>(
  bag: PropertyBagData,
  name: string,
  raw: boolean,
  convert: (value: unknown) => T,
): T | undefined {
  const text = bag[name] as string;
  let value: T;
  try {
    value = convert(raw ? text : parseJson(text));
  } catch (error) {
    if (error instanceof ConversionError || error instanceof SyntaxError) return undefined;
    throw error;
  }
  delete bag[name];
  return value;
}

/**
 * Stashes every key of `source` that its type does not define (unknown extra properties), in key order, as
 * {@link stash} does a property: under its bag key and in the operator's encoding, so that an extra named
 * as a property of another version is that property's entry there and is recalled into it. An extra named
 * as the bag key itself (`Identity` beside `identity`) is indistinguishable from it, as it would be to the
 * operator's case-insensitive JSON decoding.
 */
export function stashUnknown(
  source: object,
  known: ReadonlySet<string>,
  bag: PropertyBagData | undefined,
): PropertyBagData | undefined {
  let out = bag;
  for (const key in source) {
    if (!known.has(key)) out = stash(out, bagKey(key), (source as Record<string, unknown>)[key]);
  }
  return out;
}

/** The bag to store: undefined when empty, so that objects without extras stay free of `$propertyBag`. */
export function finishBag(bag: PropertyBagData | undefined): PropertyBagData | undefined {
  if (bag === undefined) return undefined;
  for (const _ in bag) return bag;
  return undefined;
}

let leftoversKept = false;

/**
 * Runs `work` (a conversion) with leftovers kept: what a destination without a declared bag cannot hold is
 * left in a `$propertyBag` on that object instead of being dropped. Exists for callers that report a loss
 * rather than make it; the objects it yields are not what the operator would store.
 */
export function keepingLeftovers<T>(work: () => T): T {
  const before = leftoversKept;
  leftoversKept = true;
  try {
    return work();
  } finally {
    leftoversKept = before;
  }
}

/**
 * Ends a conversion into a type without a declared bag: the leftovers are dropped, as the operator drops
 * them, or kept on `destination` under {@link keepingLeftovers}.
 */
export function leaveBehind(destination: object, bag: PropertyBagData | undefined): void {
  if (!leftoversKept) return;
  const kept = finishBag(bag);
  if (kept !== undefined) setKey(destination as Record<string, unknown>, '$propertyBag', kept);
}

/**
 * The `$propertyBag` of an object whose type declares none: such an object may still hold one, written by
 * {@link keepingLeftovers} or by an older kubectl-aso, and it is read rather than lost.
 */
export function bagOf(source: object): unknown {
  return (source as { $propertyBag?: unknown }).$propertyBag;
}

/** Runs a hand-written hook with the bag wrapped for it; returns the (possibly new) bag data. */
export function withBag(bag: PropertyBagData | undefined, hook: (bag: PropertyBag) => void): PropertyBagData {
  const data = bag ?? {};
  hook(new PropertyBag(data));
  return data;
}
