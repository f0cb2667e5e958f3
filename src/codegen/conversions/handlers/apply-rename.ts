import type { PropertyDef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';

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
