import { setKey } from '../../src/lib/conversion/checks.ts';
import { type Cut, restrict, type SchemaPair } from './restrict.ts';
import type { Schema } from './schemas.ts';

/** One conversion's result on one side: the converted object, or that side's refusal. */
export type Outcome = { object: Record<string, unknown> } | { error: string };

/** The schemas a comparison restricts to: both sides' at the target version and at the source version. */
export interface VersionSchemas {
  readonly target: SchemaPair;
  readonly source: SchemaPair;
}

/** One place where kubectl-aso and the operator wrote different things. */
export interface Disagreement {
  /** The exact path in this object, e.g. `spec.tags.a1` or `spec.$propertyBag.AccessTier`. */
  readonly path: string;
  /**
   * The path with array indices as `[]` and map keys as `*` (`spec.networkAcls.ipRules[].value`): the
   * same for every object that differs there, so a known difference is listed once.
   */
  readonly pattern: string;
  readonly ours: unknown;
  readonly operator: unknown;
}

/** Pattern of a disagreement about the conversion as a whole (one side refused it). */
export const refusalPattern = '(conversion)';

/**
 * Compares what both sides made of one object, restricted to the properties both define (`schemas`), in
 * `spec` and `status`. `$propertyBag` entries are compared as the values they hold (their JSON text
 * parsed): the operator writes Go's JSON (struct fields in declaration order, `1e+21`), kubectl-aso
 * JavaScript's, and every reader decodes the text before using it. Empty objects count as absent (Go
 * serialises an empty struct or map as `{}` where convert() leaves the key out). Returns the
 * disagreements, how many leaf values were compared (so a comparison cut down to nothing shows as 0) and how
 * many values of either side the restriction to shared properties set aside, and how many `$propertyBag`
 * entries were compared (the larger count of the two sides), so that a run shows bags were really exchanged.
 */
export function compareOutcomes(
  ours: Outcome,
  theirs: Outcome,
  schemas: VersionSchemas,
): { found: Disagreement[]; leaves: number; cut: number; bagEntries: number } {
  if ('error' in ours || 'error' in theirs) {
    if ('error' in ours && 'error' in theirs) return { found: [], leaves: 1, cut: 0, bagEntries: 0 };
    const found: Disagreement = {
      path: refusalPattern,
      pattern: refusalPattern,
      ours: 'error' in ours ? `refused: ${ours.error}` : 'converted',
      operator: 'error' in theirs ? `refused: ${theirs.error}` : 'converted',
    };
    return { found: [found], leaves: 1, cut: 0, bagEntries: 0 };
  }
  let leaves = 0;
  const cut: Cut = { values: 0 };
  let bagEntries = 0;
  const found: Disagreement[] = [];
  for (const part of ['spec', 'status']) {
    const sub = (schema?: Schema) =>
      schema?.properties && Object.hasOwn(schema.properties, part) ? schema.properties[part] : undefined;
    const target = { ours: sub(schemas.target.ours), theirs: sub(schemas.target.theirs) };
    const source = { ours: sub(schemas.source.ours), theirs: sub(schemas.source.theirs) };
    const mine = withoutEmpty(restrict(ours.object[part], target, source, 'unless-one-side', cut));
    const operator = withoutEmpty(restrict(theirs.object[part], target, source, 'unless-one-side', cut));
    leaves += leafCount(operator);
    bagEntries += Math.max(bagEntryCount(mine), bagEntryCount(operator));
    collect(mine, operator, target.theirs, part, part, found);
  }
  return { found, leaves, cut: cut.values, bagEntries };
}

function bagEntryCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + bagEntryCount(item), 0);
  if (!isRecord(value)) return 0;
  return Object.entries(value).reduce<number>(
    (sum, [key, child]) =>
      sum + (key === '$propertyBag' && isRecord(child) ? Object.keys(child).length : bagEntryCount(child)),
    0,
  );
}

function collect(
  ours: unknown,
  theirs: unknown,
  schema: Schema | undefined,
  path: string,
  pattern: string,
  found: Disagreement[],
): void {
  if (isRecord(ours) && isRecord(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    const isMap = schema?.properties === undefined && typeof schema?.additionalProperties === 'object';
    for (const key of keys) {
      const a = Object.hasOwn(ours, key) ? ours[key] : undefined;
      const b = Object.hasOwn(theirs, key) ? theirs[key] : undefined;
      if (key === '$propertyBag') {
        collectBag(a, b, `${path}.${key}`, `${pattern}.${key}`, found);
        continue;
      }
      const child = isMap
        ? (schema?.additionalProperties as Schema)
        : schema?.properties && Object.hasOwn(schema.properties, key)
          ? schema.properties[key]
          : undefined;
      collect(a, b, child, `${path}.${key}`, `${pattern}.${isMap ? '*' : key}`, found);
    }
    return;
  }
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    for (const [index, item] of ours.entries()) {
      collect(item, theirs[index], schema?.items, `${path}[${index}]`, `${pattern}[]`, found);
    }
    return;
  }
  if (!sameJson(ours, theirs)) found.push({ path, pattern, ours, operator: theirs });
}

function collectBag(
  ours: unknown,
  theirs: unknown,
  path: string,
  pattern: string,
  found: Disagreement[],
): void {
  if (!isRecord(ours) || !isRecord(theirs)) {
    if (!sameJson(ours, theirs)) found.push({ path, pattern, ours, operator: theirs });
    return;
  }
  const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
  for (const key of keys) {
    const a = Object.hasOwn(ours, key) ? ours[key] : undefined;
    const b = Object.hasOwn(theirs, key) ? theirs[key] : undefined;
    if (!sameJson(parsed(a), parsed(b)))
      found.push({ path: `${path}.${key}`, pattern: `${pattern}.${key}`, ours: a, operator: b });
  }
}

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Equal as JSON values: numbers by value, objects regardless of key order (exclusions compare so too). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

function leafCount(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null || typeof value !== 'object') return 1;
  return Object.values(value).reduce<number>((sum, child) => sum + leafCount(child), 0);
}

/**
 * `value` without empty objects: the operator's Go structs serialise an absent status or bag as `{}` where
 * convert() leaves the key out, and both mean the same to the API server and to every reader.
 */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const kept = withoutEmpty(child);
    if (kept !== undefined && !(isRecord(kept) && Object.keys(kept).length === 0)) setKey(out, key, kept);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
