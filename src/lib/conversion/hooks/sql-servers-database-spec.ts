import type { ServersDatabase_Spec_ConversionHooks } from '../../../../generated/sql/v1api20140401storage/hooks.ts';
import { isObject } from '../checks.ts';
import type { PropertyBag } from '../property-bag.ts';
import { maxSizeBytesDown, maxSizeBytesUp } from './max-size-bytes.ts';

/**
 * Hand-written steps for ServersDatabase specs between 2014-04-01 and 2021-11-01, two changes no rule can
 * convert: `maxSizeBytes` turned from a string into an integer, and `edition` plus
 * `requestedServiceObjectiveName` moved into `sku.tier` and `sku.name`. Each step only moves a value when the
 * way back reproduces it exactly; otherwise the value stays in the property bag.
 */
export const serversDatabaseSpecHooks: ServersDatabase_Spec_ConversionHooks = {
  assignTo(_source, destination, bag) {
    maxSizeBytesUp(bag, (value) => {
      destination.maxSizeBytes = value;
    });
    // A `sku` already in the bag (a value no rule could place) keeps its name there: building a typed sku
    // beside it would make the way down stash the typed one over it.
    if (destination.sku !== undefined || bag.has('sku')) return;
    const edition = bag.get('edition');
    const objective = bag.get('requestedServiceObjectiveName');
    if (edition === undefined && objective === undefined) return;
    if (
      (edition !== undefined && typeof edition !== 'string') ||
      (objective !== undefined && typeof objective !== 'string')
    )
      return;
    destination.sku = {
      ...(objective !== undefined ? { name: objective } : {}),
      ...(edition !== undefined ? { tier: edition } : {}),
    };
    bag.remove('edition');
    bag.remove('requestedServiceObjectiveName');
  },

  assignFrom(_source, destination, bag) {
    maxSizeBytesDown(bag, (value) => {
      destination.maxSizeBytes = value;
    });
    skuDown(bag, (tier, name) => {
      if (tier !== undefined) destination.edition = tier;
      if (name !== undefined) destination.requestedServiceObjectiveName = name;
    });
  },
};

/** Moves a stashed `sku` back into edition and service objective when it holds nothing else. */
function skuDown(
  bag: PropertyBag,
  assign: (tier: string | undefined, name: string | undefined) => void,
): void {
  const sku = bag.get('sku');
  if (!isObject(sku)) return;
  const keys = Object.keys(sku);
  if (keys.length === 0 || keys.some((k) => k !== 'name' && k !== 'tier')) return;
  const { name, tier } = sku;
  if ((name !== undefined && typeof name !== 'string') || (tier !== undefined && typeof tier !== 'string'))
    return;
  if (bag.has('edition') || bag.has('requestedServiceObjectiveName')) return;
  assign(tier, name);
  bag.remove('sku');
}
