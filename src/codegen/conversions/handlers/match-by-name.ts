import type { PropertyDef } from '../../model/types.ts';

/**
 * Finds the destination property a source property pairs with by name. Seed 000 says names compare
 * case-insensitively, but the operator pairs properties by their Go field names exactly: network's subnet
 * `applicationGatewayIpConfigurations` (v1api20201101) and `applicationGatewayIPConfigurations`
 * (v1api20240301) are two properties to it, and the older one rides in the property bag. JSON names differ
 * from Go names only in their first letter, so only that letter's case is ignored here. Declines with
 * undefined; config renames are `applyRename`'s.
 */
export function matchByName(
  source: PropertyDef,
  candidates: readonly PropertyDef[],
): PropertyDef | undefined {
  const name = goFieldName(source.name);
  return candidates.find((c) => goFieldName(c.name) === name);
}

function goFieldName(jsonName: string): string {
  return jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}
