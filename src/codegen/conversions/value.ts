import type { TypeRef } from '../model/types.ts';
import type { PairContext } from './context.ts';
import { collectionValue } from './handlers/assign-collection.ts';
import { enumValue } from './handlers/assign-enum.ts';
import { objectValue } from './handlers/assign-object.ts';
import { primitiveValue } from './handlers/assign-primitive.ts';
import type { ValueConversion } from './plan-types.ts';

/**
 * How a value of type `source` becomes a value of type `destination`, or undefined when no rule of seed
 * 000 allows it. Each rule declines what it does not recognise; the first that claims wins.
 */
export function valueConversion(
  source: TypeRef,
  destination: TypeRef,
  ctx: PairContext,
): ValueConversion | undefined {
  return (
    primitiveValue(source, destination) ??
    enumValue(source, destination, ctx) ??
    objectValue(source, destination, ctx) ??
    collectionValue(source, destination, ctx)
  );
}

/** A readable name of a type for messages: `string`, `enum HighAvailabilityMode`, `Sku[]`. */
export function describeType(ref: TypeRef): string {
  switch (ref.kind) {
    case 'primitive':
      return ref.primitive;
    case 'enum':
      return `enum ${ref.name}`;
    case 'object':
      return ref.name;
    case 'array':
      return `${describeType(ref.element)}[]`;
    case 'map':
      return `map of ${describeType(ref.value)}`;
  }
}
