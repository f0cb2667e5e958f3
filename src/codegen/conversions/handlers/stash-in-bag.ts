import type { PropertyDef } from '../../model/types.ts';
import type { Step } from '../plan-types.ts';

/**
 * Claims a source property with no assignable counterpart: its value goes into the destination's property
 * bag as JSON (seed 000), never away. `typeChange` marks a same-named counterpart of another type.
 */
export function stashInBag(source: PropertyDef, typeChange: boolean): Extract<Step, { kind: 'stash' }> {
  return { kind: 'stash', handler: 'stashInBag', source: source.name, typeChange };
}
