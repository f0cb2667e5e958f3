import type { PropertyDef, TypeRef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';
import type { Step, ValueConversion } from '../plan-types.ts';
import { valueConversion } from '../value.ts';

/** Arrays and maps convert element by element when their elements match by the same rules. */
export function collectionValue(
  source: TypeRef,
  destination: TypeRef,
  ctx: PairContext,
): ValueConversion | undefined {
  if (source.kind === 'array' && destination.kind === 'array') {
    const element = valueConversion(source.element, destination.element, ctx);
    return element ? { kind: 'array', element } : undefined;
  }
  if (source.kind === 'map' && destination.kind === 'map') {
    const value = valueConversion(source.value, destination.value, ctx);
    return value ? { kind: 'map', value } : undefined;
  }
  return undefined;
}

/** Claims a pair of arrays, or of maps, whose elements convert. */
export function assignCollection(
  source: PropertyDef,
  destination: PropertyDef,
  ctx: PairContext,
): Step | undefined {
  if (source.type.kind !== 'array' && source.type.kind !== 'map') return undefined;
  const value = valueConversion(source.type, destination.type, ctx);
  if (value?.kind !== 'array' && value?.kind !== 'map') return undefined;
  return {
    kind: 'assign',
    handler: 'assignCollection',
    source: source.name,
    destination: destination.name,
    value,
  };
}
