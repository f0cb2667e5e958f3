import { WrongType } from './errors.ts';

/**
 * The checked reads generated conversions use for each property: return the value typed, or throw
 * {@link WrongType} naming its JSON path. `key` is a pre-formatted path suffix (`.name`) or an array index,
 * joined to `path` only when an error is raised, so the happy path allocates nothing.
 */
export type PathKey = string | number | MapKey;

/**
 * The key of a map entry, kept as it is until an error needs it in a path: quoting every key up front was
 * a measurable part of converting objects with maps (tags, settings), paid on the happy path.
 */
export class MapKey {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/**
 * Joins a path and a key: `spec` + `.sku` -> `spec.sku`; `spec.rules` + 2 -> `spec.rules[2]`;
 * `spec.tags` + the map key `env` -> `spec.tags["env"]`.
 */
export function at(path: string, key: PathKey): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (typeof key === 'string') return `${path}${key}`;
  return `${path}[${JSON.stringify(key.name)}]`;
}

/** A string value. */
export function str(value: unknown, path: string, key: PathKey): string {
  if (typeof value !== 'string') throw new WrongType(at(path, key), 'a string', value);
  return value;
}

/** An integer value (a JSON number without a fraction). */
export function int(value: unknown, path: string, key: PathKey): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new WrongType(at(path, key), 'an integer', value);
  return value;
}

/** A finite number. */
export function num(value: unknown, path: string, key: PathKey): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new WrongType(at(path, key), 'a number', value);
  return value;
}

/** A boolean. */
export function bool(value: unknown, path: string, key: PathKey): boolean {
  if (typeof value !== 'boolean') throw new WrongType(at(path, key), 'a boolean', value);
  return value;
}

/**
 * Any JSON value (the operator's `v1.JSON`), copied so that the result shares nothing with the source.
 * Nothing is checked but that it is JSON: the operator keeps the raw text whatever it holds.
 */
export function json(value: unknown, path: string, key: PathKey): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new WrongType(at(path, key), 'a JSON value', value);
    return value;
  }
  if (Array.isArray(value)) {
    const here = at(path, key);
    return value.map((e, i) => json(e, here, i));
  }
  if (isObject(value)) {
    const here = at(path, key);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) setKey(out, k, json(value[k], here, new MapKey(k)));
    return out;
  }
  throw new WrongType(at(path, key), 'a JSON value', value);
}

/**
 * Sets `key` on a plain object as an own data property. `out[key] = value` would call the inherited
 * `__proto__` setter for a key named `__proto__` (a legal JSON key) and silently drop the value.
 */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fails unless `value` is a JSON object; used at the top of every generated object conversion. */
export function checkObject(value: unknown, path: string): void {
  if (!isObject(value)) throw new WrongType(path, 'an object', value);
}

/** Converts each element of an array, naming the element's index in any error. */
export function mapArray<T>(
  value: unknown,
  path: string,
  key: PathKey,
  convert: (element: unknown, path: string, index: number) => T,
): T[] {
  if (!Array.isArray(value)) throw new WrongType(at(path, key), 'an array', value);
  const here = at(path, key);
  const out = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) out[i] = convert(value[i], here, i);
  return out;
}

/** Converts each value of a map (a JSON object used as a dictionary), naming the entry in any error. */
export function mapValues<T>(
  value: unknown,
  path: string,
  key: PathKey,
  convert: (element: unknown, path: string, key: MapKey) => T,
): Record<string, T> {
  if (!isObject(value)) throw new WrongType(at(path, key), 'an object (map)', value);
  const here = at(path, key);
  const out: Record<string, T> = {};
  for (const k of Object.keys(value)) setKey(out, k, convert(value[k], here, new MapKey(k)));
  return out;
}

/**
 * Whether a converted list or map holds anything. Every list and map in the operator's API types is a Go
 * slice or map tagged `omitempty`, so the operator never writes an empty one: neither does a conversion.
 */
export function filled(value: readonly unknown[] | Readonly<Record<string, unknown>>): boolean {
  if (Array.isArray(value)) return value.length > 0;
  for (const _ in value) return true;
  return false;
}
