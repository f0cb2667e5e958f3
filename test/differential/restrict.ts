import type { Schema } from './schemas.ts';

/** What both sides' schemas define for one value: the target version's and the source version's. */
export interface SchemaPair {
  readonly ours?: Schema;
  readonly theirs?: Schema;
}

/**
 * `value` cut down to what both schemas define, so that a property only one side has (issue 8 items 3-4) does
 * not count as a disagreement. A `$propertyBag` keeps only entries whose property both sides define at the
 * same place in the source version (`source`), since each side bags the properties its source has and its
 * target lacks.
 */
export function restrict(value: unknown, target: SchemaPair, source: SchemaPair = {}): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => restrict(item, pairItems(target), pairItems(source)));
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === '$propertyBag') {
      if (defines(target.ours, key) && defines(target.theirs, key)) out[key] = bagBothKnow(child, source);
      continue;
    }
    if (isMap(target.ours) && isMap(target.theirs)) {
      out[key] = restrict(child, pairValues(target), pairValues(source));
      continue;
    }
    if (!defines(target.ours, key) || !defines(target.theirs, key)) continue;
    out[key] = restrict(child, pairProperty(target, key), pairProperty(source, key));
  }
  return out;
}

function bagBothKnow(bag: unknown, source: SchemaPair): unknown {
  if (bag === null || typeof bag !== 'object') return bag;
  const kept: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(bag as Record<string, unknown>)) {
    const property = key.charAt(0).toLowerCase() + key.slice(1);
    if (defines(source.ours, property) && defines(source.theirs, property)) kept[key] = text;
  }
  return kept;
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
