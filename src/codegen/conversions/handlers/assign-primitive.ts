import type { PropertyDef, TypeRef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';
import type { Step, ValueConversion } from '../plan-types.ts';
import { valueConversion } from '../value.ts';

/** Seed 000: a primitive copies to a primitive of the identical type, nothing else. */
export function primitiveValue(source: TypeRef, destination: TypeRef): ValueConversion | undefined {
  if (source.kind !== 'primitive' || destination.kind !== 'primitive') return undefined;
  return source.primitive === destination.primitive
    ? { kind: 'primitive', primitive: source.primitive }
    : undefined;
}

/** Claims a pair of primitive properties of the identical type: a checked assignment. */
export function assignPrimitive(
  source: PropertyDef,
  destination: PropertyDef,
  ctx: PairContext,
): Step | undefined {
  if (source.type.kind !== 'primitive') return undefined;
  const value = valueConversion(source.type, destination.type, ctx);
  if (value?.kind !== 'primitive') return undefined;
  return {
    kind: 'assign',
    handler: 'assignPrimitive',
    source: source.name,
    destination: destination.name,
    value,
  };
}
