import type { PropertyDef, TypeRef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';
import type { Step, ValueConversion } from '../plan-types.ts';
import { valueConversion } from '../value.ts';

/**
 * Seed 000: an object matches an object whose type has the same name (case-insensitive), or the name the
 * config says it was renamed to; it converts recursively through that pair's own generated function.
 */
export function objectValue(
  source: TypeRef,
  destination: TypeRef,
  ctx: PairContext,
): ValueConversion | undefined {
  if (source.kind !== 'object' || destination.kind !== 'object') return undefined;
  if (!ctx.typesMatch(source.name, destination.name)) return undefined;
  const fn = ctx.requestObject(source.name, destination.name);
  return { kind: 'object', fn, sourceType: source.name, destType: destination.name };
}

/** Claims a pair of object properties whose types match by name. */
export function assignObject(
  source: PropertyDef,
  destination: PropertyDef,
  ctx: PairContext,
): Step | undefined {
  if (source.type.kind !== 'object') return undefined;
  const value = valueConversion(source.type, destination.type, ctx);
  if (value?.kind !== 'object') return undefined;
  return {
    kind: 'assign',
    handler: 'assignObject',
    source: source.name,
    destination: destination.name,
    value,
  };
}
