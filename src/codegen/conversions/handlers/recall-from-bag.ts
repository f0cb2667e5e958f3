import type { PropertyDef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';
import type { Step } from '../plan-types.ts';
import { valueConversion } from '../value.ts';

/**
 * Claims a destination property nothing assigned: if the property bag holds a value under its exact name
 * (left there by another version, under the canonical name), the value is converted onto the property's
 * type by the destination type's own generated `normalize` conversion, which checks every nested value and
 * keeps unknown nested keys in nested bags. A value that fails the conversion stays in the bag, whole.
 * `self` is the context converting the destination package onto itself.
 *
 * Why the destination's own shape: a value is stashed at the link where the neighbouring version lacks the
 * property, from this very type on the way in the other direction, so in the normal flow it comes back in
 * the shape it left. A property absent from a version between two that have it brings a value in the
 * shape of the version below instead: the planner recalls that one through `skippedPropertyShape`.
 */
export function recallFromBag(destination: PropertyDef, self: PairContext): Step {
  const value = valueConversion(destination.type, destination.type, self);
  if (!value)
    throw new Error(
      `${self.destination.group}/${self.destination.version}: no conversion of ${destination.name} onto its own type`,
    );
  return { kind: 'recall', handler: 'recallFromBag', destination: destination.name, value };
}
