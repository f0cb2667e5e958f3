import type { ReferencePath, ReferenceRole } from './schema-references.ts';

/** One reference as an object holds it: where (`spec.subnets[2].reference`), what role, and its fields. */
export interface FoundReference {
  role: ReferenceRole;
  /** The concrete path under the object, with array indices and map keys. */
  at: string;
  name?: string;
  key?: string;
  armId?: string;
  group?: string;
  kind?: string;
  /** From the schema, for an owner whose type the object does not name. */
  ownerType?: { group: string; kind: string };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function* valuesAt(value: unknown, path: readonly string[], at: string): Generator<[unknown, string]> {
  if (path.length === 0) {
    yield [value, at];
    return;
  }
  const [segment, ...rest] = path as [string, ...string[]];
  if (segment === '[]') {
    if (!Array.isArray(value)) return;
    for (const [index, item] of value.entries()) yield* valuesAt(item, rest, `${at}[${index}]`);
    return;
  }
  const object = record(value);
  if (!object) return;
  if (segment === '{}') {
    for (const [key, item] of Object.entries(object)) yield* valuesAt(item, rest, `${at}.${key}`);
    return;
  }
  yield* valuesAt(object[segment], rest, `${at}.${segment}`);
}

/**
 * The references an object's spec holds at the paths its kind's schema has: only those set, each with the
 * fields that name its target. A reference with neither a name nor an ARM ID names nothing and is left out.
 */
export function referencesIn(spec: unknown, paths: readonly ReferencePath[]): FoundReference[] {
  const found: FoundReference[] = [];
  for (const path of paths) {
    for (const [value, at] of valuesAt(spec, path.path, 'spec')) {
      const fields = record(value);
      if (!fields) continue;
      const name = text(fields.name);
      const armId = text(fields.armId);
      if (!name && !armId) continue;
      const key = text(fields.key);
      const group = text(fields.group);
      const kind = text(fields.kind);
      found.push({
        role: path.role,
        at,
        ...(name ? { name } : {}),
        ...(key ? { key } : {}),
        ...(armId ? { armId } : {}),
        ...(group ? { group } : {}),
        ...(kind ? { kind } : {}),
        ...(path.ownerType ? { ownerType: path.ownerType } : {}),
      });
    }
  }
  return found;
}
