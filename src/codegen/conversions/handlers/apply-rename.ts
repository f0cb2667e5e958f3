import type { PropertyDef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';

/**
 * Finds the destination property a source property pairs with: the same name compared case-insensitively
 * (seed 000), or failing that the name a config rename gives it on this link. Declines with undefined.
 */
export function matchByName(
  source: PropertyDef,
  candidates: readonly PropertyDef[],
): PropertyDef | undefined {
  const name = source.name.toLowerCase();
  return candidates.find((c) => c.name.toLowerCase() === name);
}

/** Claims a source property the config says was renamed on this link, pairing it with the new name. */
export function applyRename(
  sourceType: string,
  source: PropertyDef,
  candidates: readonly PropertyDef[],
  ctx: PairContext,
): PropertyDef | undefined {
  const renamed = ctx.renamedProperty(sourceType, source.name);
  if (!renamed) return undefined;
  const target = renamed.toLowerCase();
  return candidates.find((c) => c.name.toLowerCase() === target);
}
