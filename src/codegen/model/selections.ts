import type { PropertySelection } from './config.ts';
import type { ObjectDef, PackageDef, PropertyDef, TypeDef } from './types.ts';

/** What a transformation makes of one selected property: its replacement(s), and types they need. */
export interface Transformed {
  readonly properties: readonly PropertyDef[];
  readonly types?: readonly TypeDef[];
}

/**
 * Applies one transformation to the properties a config section selects, in every API package (storage
 * variants and clones are made later, from the transformed packages). It exists so each transformation
 * stage says only what it makes of a property. A selection that matches no package, type or property fails
 * generation naming it: a stale entry would otherwise silently leave a property untransformed.
 */
export function transformSelected(
  packages: readonly PackageDef[],
  selections: readonly PropertySelection[],
  section: string,
  transform: (
    property: PropertyDef,
    pkg: PackageDef,
    type: ObjectDef,
    selection: PropertySelection,
  ) => Transformed,
): PackageDef[] {
  const used = new Set<string>();
  const out = packages.map((pkg) => {
    if (pkg.storage) return pkg;
    let types: Map<string, TypeDef> | undefined;
    selections.forEach((selection, index) => {
      if (selection.group !== pkg.group) return;
      if (selection.apiVersions.length > 0 && !selection.apiVersions.includes(pkg.armApiVersion)) return;
      const def = (types ?? pkg.types).get(selection.type);
      if (def?.kind !== 'object') return;
      types ??= new Map(pkg.types);
      const properties: PropertyDef[] = [];
      for (const property of def.properties) {
        if (!selection.properties.includes(property.name)) {
          properties.push(property);
          continue;
        }
        used.add(`${index}/${property.name}`);
        const result = transform(property, pkg, def, selection);
        properties.push(...result.properties);
        for (const added of result.types ?? []) addShared(types, added, pkg);
      }
      types.set(def.name, { ...def, properties });
    });
    return types ? { ...pkg, types } : pkg;
  });
  selections.forEach((selection, index) => {
    for (const name of selection.properties) {
      if (!used.has(`${index}/${name}`)) {
        throw new Error(
          `${section}[${index}]: ${selection.group} ${selection.type}.${name} is in no API package` +
            (selection.apiVersions.length > 0 ? ` at ${selection.apiVersions.join(', ')}` : ''),
        );
      }
    }
  });
  return out;
}

/** Adds a shared type to a package, refusing a schema type of the same name and another shape. */
function addShared(types: Map<string, TypeDef>, def: TypeDef, pkg: PackageDef): void {
  const existing = types.get(def.name);
  if (existing && JSON.stringify(existing) !== JSON.stringify(def))
    throw new Error(`${pkg.group}/${pkg.version}: type ${def.name} already exists with another shape`);
  types.set(def.name, def);
}

/** Drops `name` from an object type of a package, where the type has it. */
export function withoutProperty(types: Map<string, TypeDef>, typeName: string, name: string): void {
  const def = types.get(typeName);
  if (def?.kind !== 'object') return;
  types.set(typeName, { ...def, properties: def.properties.filter((p) => p.name !== name) });
}
