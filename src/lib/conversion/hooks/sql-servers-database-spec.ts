import type { ServersDatabase_Spec_ConversionHooks } from '../../../../generated/sql/v1api20140401storage/hooks.ts';
import { isObject, setKey } from '../checks.ts';
import type { PropertyBag } from '../property-bag.ts';
import { maxSizeBytesDown, maxSizeBytesUp } from './max-size-bytes.ts';

/**
 * Hand-written steps for ServersDatabase specs between 2014-04-01 and 2021-11-01, two changes no rule can
 * convert: `maxSizeBytes` turned from a string into an integer, and `edition` plus
 * `requestedServiceObjectiveName` moved into `sku.tier` and `sku.name`.
 *
 * Going down, `edition` and `requestedServiceObjectiveName` always show the sku's tier and name, and only
 * the rest of the sku (`capacity`, `family`, `size`, nested extras) stays in the bag; going up, they
 * overwrite the tier and name of the sku recalled from the bag, so a user's edit at 2014-04-01 is applied.
 * A `maxSizeBytes` moves only when the way back reproduces it exactly; otherwise it stays in the bag.
 */
export const serversDatabaseSpecHooks: ServersDatabase_Spec_ConversionHooks = {
  assignTo(_source, destination, bag) {
    maxSizeBytesUp(bag, (value) => {
      destination.maxSizeBytes = value;
    });
    // A `sku` still in the bag (a value no rule could place) keeps its name there: building a typed sku
    // beside it would make the way down stash the typed one over it.
    if (bag.has('Sku')) return;
    const edition = bag.getString('Edition');
    const objective = bag.getString('RequestedServiceObjectiveName');
    if (edition === undefined && objective === undefined) return;
    destination.sku = {
      ...destination.sku,
      ...(objective !== undefined ? { name: objective } : {}),
      ...(edition !== undefined ? { tier: edition } : {}),
    };
    bag.remove('Edition');
    bag.remove('RequestedServiceObjectiveName');
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

/**
 * Shows a stashed sku's tier and name as edition and service objective, leaving the rest of the sku (if
 * any) in the bag. A sku that is not an object, or whose tier or name is not a string, stays whole.
 */
function skuDown(
  bag: PropertyBag,
  assign: (tier: string | undefined, name: string | undefined) => void,
): void {
  const sku = bag.get('Sku');
  if (!isObject(sku)) return;
  const { name, tier } = sku;
  if ((name !== undefined && typeof name !== 'string') || (tier !== undefined && typeof tier !== 'string'))
    return;
  if (name === undefined && tier === undefined) return;
  assign(tier, name);
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(sku)) if (key !== 'name' && key !== 'tier') setKey(rest, key, sku[key]);
  if (Object.keys(rest).length === 0) bag.remove('Sku');
  else bag.put('Sku', rest);
}
