/**
 * Reading the ARM emulator's log and store the way a prediction is checked: which requests touched one
 * resource, and what a write changed in it, in the terms adopt-check's what-if uses (ARM body paths).
 */
import type { RequestRecord } from '../fixtures/arm-emulator/index.ts';

/** One property a write changed: its ARM body path, the value before and after (`null` when absent). */
export interface BodyChange {
  readonly path: string;
  readonly from: unknown;
  readonly to: unknown;
}

/** The requests on exactly this resource (not its children nor its operations), in order. */
export function requestsOn(records: readonly RequestRecord[], armId: string): RequestRecord[] {
  const wanted = armId.toLowerCase();
  return records.filter((record) => {
    const path = record.path
      .split('?')[0]!
      .replace(/\/{2,}/g, '/')
      .toLowerCase();
    return path === wanted;
  });
}

/** What ARM fills in itself, never taken from a PUT: left out when comparing bodies. */
const armOwned = new Set(['id', 'name', 'type', 'properties.provisioningState']);

/**
 * Every leaf that differs between two resource bodies (objects compared key by key, arrays whole), by
 * path, sorted; ARM's own fields left out.
 */
export function bodyChanges(before: Record<string, unknown>, after: Record<string, unknown>): BodyChange[] {
  const from = leaves(before);
  const to = leaves(after);
  const changes: BodyChange[] = [];
  for (const path of new Set([...from.keys(), ...to.keys()])) {
    if (armOwned.has(path)) continue;
    const [a, b] = [from.get(path), to.get(path)];
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ path, from: a ?? null, to: b ?? null });
  }
  return changes.sort((x, y) => x.path.localeCompare(y.path));
}

/**
 * `body` with each predicted change made (a `to` of `null` removes the property): what the resource
 * should read after the write if the prediction was right.
 */
export function withChanges(
  body: Record<string, unknown>,
  changes: readonly { path: string; to: unknown }[],
): Record<string, unknown> {
  const result = structuredClone(body);
  for (const change of changes) {
    const keys = segmentsOf(change.path);
    let at: Record<string | number, unknown> = result;
    for (const [i, key] of keys.slice(0, -1).entries()) {
      if (typeof at[key] !== 'object' || at[key] === null)
        at[key] = typeof keys[i + 1] === 'number' ? [] : {};
      at = at[key] as Record<string | number, unknown>;
    }
    const last = keys[keys.length - 1]!;
    if (change.to === null) delete at[last];
    else at[last] = structuredClone(change.to);
  }
  return result;
}

/** The value at an ARM body path (`tags.env`, `properties.ipRules[0].value`), or undefined. */
export function valueAt(body: unknown, path: string): unknown {
  let at = body;
  for (const key of segmentsOf(path))
    at = typeof at === 'object' && at !== null ? (at as Record<string | number, unknown>)[key] : undefined;
  return at;
}

/** A what-if path's keys, with a list element's index as a number: `a.b[1].c` is `a`, `b`, 1, `c`. */
function segmentsOf(path: string): (string | number)[] {
  return path.split('.').flatMap((part) => {
    const [name = '', ...indexes] = part.split('[');
    return [name, ...indexes.map((index) => Number(index.replace(']', '')))];
  });
}

function leaves(body: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (isRecord(body) && (prefix === '' || Object.keys(body).length > 0)) {
    for (const [key, value] of Object.entries(body)) leaves(value, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix !== '' && body !== undefined && body !== null) {
    into.set(prefix, body);
  }
  return into;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The requests that could change something in ARM: all but GETs and the token requests (POSTs to the
 * identity endpoint) a client makes before reading.
 */
export function writesIn(records: readonly RequestRecord[]): RequestRecord[] {
  return records.filter((record) => record.method !== 'GET' && !/\/oauth2\/v2\.0\/token\b/.test(record.path));
}

/**
 * A body without its `null`s, at any depth: the operator's Go encoder writes an unset list or map of a
 * field without `omitempty` as `null`, which the what-if reads as the property unset, so no change names it.
 */
export function withoutNulls(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutNulls);
  if (!isRecord(body)) return body;
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => [key, withoutNulls(value)]),
  );
}
