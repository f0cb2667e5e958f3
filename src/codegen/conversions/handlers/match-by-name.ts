import type { PropertyDef } from '../../model/types.ts';

/**
 * Finds the destination property a source property pairs with by name: the same name compared
 * case-insensitively (seed 000). Declines with undefined; config renames are `applyRename`'s.
 */
export function matchByName(
  source: PropertyDef,
  candidates: readonly PropertyDef[],
): PropertyDef | undefined {
  const name = source.name.toLowerCase();
  return candidates.find((c) => c.name.toLowerCase() === name);
}
