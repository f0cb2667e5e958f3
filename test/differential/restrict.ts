import { setKey } from '../../src/lib/conversion/checks.ts';
import type { Schema } from './schemas.ts';

/** What both sides' schemas define for one value: the target version's and the source version's. */
export interface SchemaPair {
  readonly ours?: Schema;
  readonly theirs?: Schema;
}

/**
 * Which `$propertyBag` entries a comparison keeps:
 * - `both-define`: only entries whose property both sides define at the source (the sample comparison:
 *   each side bags what its source has and its target lacks);
 * - `unless-one-side`: every entry except those of a property exactly one side defines, at the source or
 *   at the target, so entries under names no version types (which both must carry along untouched) and
 *   entries left behind for a property both type at the target are compared too.
 */
export type BagEntries = 'both-define' | 'unless-one-side';

/** How many values a restriction cut, so that what the comparison set aside is counted, not silent. */
export interface Cut {
  values: number;
}

/**
 * `value` cut down to what both schemas define, so that a property only one side has (issue 8 items 3-4) does
 * not count as a disagreement. A `$propertyBag` is kept where both sides define one at the target, its
 * entries chosen by `bags`. Every value or bag entry cut is counted in `cut`.
 */
export function restrict(
  value: unknown,
  target: SchemaPair,
  source: SchemaPair = {},
  bags: BagEntries = 'both-define',
  cut: Cut = { values: 0 },
): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => restrict(item, pairItems(target), pairItems(source), bags, cut));
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === '$propertyBag') {
      if (defines(target.ours, key) && defines(target.theirs, key))
        setKey(out, key, bagKept(child, target, source, bags, cut));
      else cut.values += 1;
      continue;
    }
    if (isMap(target.ours) && isMap(target.theirs)) {
      setKey(out, key, restrict(child, pairValues(target), pairValues(source), bags, cut));
      continue;
    }
    if (!defines(target.ours, key) || !defines(target.theirs, key)) {
      cut.values += 1;
      continue;
    }
    setKey(out, key, restrict(child, pairProperty(target, key), pairProperty(source, key), bags, cut));
  }
  return out;
}

function bagKept(bag: unknown, target: SchemaPair, source: SchemaPair, bags: BagEntries, cut: Cut): unknown {
  if (bag === null || typeof bag !== 'object') return bag;
  const kept: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(bag as Record<string, unknown>)) {
    const property = key.charAt(0).toLowerCase() + key.slice(1);
    const keep =
      bags === 'both-define'
        ? defines(source.ours, property) && defines(source.theirs, property)
        : !oneSideDefines(source, property) && !oneSideDefines(target, property);
    if (!keep) cut.values += 1;
    else if (bags === 'both-define')
      setKey(kept, key, bagValueRestricted(text, pairProperty(source, property), cut));
    else setKey(kept, key, text);
  }
  return kept;
}

/**
 * A bag entry holding an object as JSON text, cut to what both sides define for that property at the source:
 * inside it, a nested `$propertyBag` may hold a property only one side types (a `*FromConfig` or reference on a
 * property our schemas do not describe), which the two sides bag differently. Anything else is returned as it is.
 */
function bagValueRestricted(text: unknown, schemas: SchemaPair, cut: Cut): unknown {
  if (typeof text !== 'string' || !text.startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (parsed === null || typeof parsed !== 'object' || !Object.hasOwn(parsed, '$propertyBag')) return text;
  const restricted = restrict(parsed, schemas, schemas, 'both-define', cut) as Record<string, unknown>;
  const bag = restricted.$propertyBag;
  // An empty bag is no bag: neither side writes one (`omitempty` in the operator's types).
  if (bag !== null && typeof bag === 'object' && Object.keys(bag).length === 0)
    delete restricted.$propertyBag;
  return JSON.stringify(restricted);
}

function oneSideDefines(pair: SchemaPair, key: string): boolean {
  return defines(pair.ours, key) !== defines(pair.theirs, key);
}

function defines(schema: Schema | undefined, key: string): boolean {
  return schema?.properties !== undefined && Object.hasOwn(schema.properties, key);
}

function isMap(schema: Schema | undefined): boolean {
  return schema?.properties === undefined && typeof schema?.additionalProperties === 'object';
}

function pairProperty(pair: SchemaPair, key: string): SchemaPair {
  return { ours: pair.ours?.properties?.[key], theirs: pair.theirs?.properties?.[key] };
}

function pairItems(pair: SchemaPair): SchemaPair {
  return { ours: pair.ours?.items, theirs: pair.theirs?.items };
}

function pairValues(pair: SchemaPair): SchemaPair {
  const values = (schema?: Schema) =>
    typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  return { ours: values(pair.ours), theirs: values(pair.theirs) };
}
