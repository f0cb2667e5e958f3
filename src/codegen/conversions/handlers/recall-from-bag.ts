import type { PackageDef, PropertyDef, TypeRef } from '../../model/types.ts';
import type { RecallCheck, Step } from '../plan-types.ts';

/**
 * Claims a destination property nothing assigned: if the property bag holds a value under its name (left
 * there by another version) and the value has the right shape, it is taken out of the bag and assigned.
 */
export function recallFromBag(destination: PropertyDef, pkg: PackageDef): Step {
  return {
    kind: 'recall',
    handler: 'recallFromBag',
    destination: destination.name,
    check: checkOf(destination.type, pkg),
    type: destination.type,
  };
}

function checkOf(ref: TypeRef, pkg: PackageDef): RecallCheck {
  switch (ref.kind) {
    case 'primitive':
      return ref.primitive;
    case 'enum': {
      const def = pkg.types.get(ref.name);
      return def?.kind === 'enum' ? def.base : 'string';
    }
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    case 'map':
      return 'map';
  }
}
