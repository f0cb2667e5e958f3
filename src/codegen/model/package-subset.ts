import type { PackageDef, ResourceDef, TypeDef, TypeRef } from './types.ts';

/**
 * The package with only the resources `keep` accepts and the types they reach: the operator's package for
 * a prefix at a date holds only the kinds it serves under that prefix (API Management's `v1api20240501`
 * has no User), so neither their types nor their conversions belong there.
 */
export function packageSubset(pkg: PackageDef, keep: (resource: ResourceDef) => boolean): PackageDef {
  const resources = pkg.resources.filter(keep);
  if (resources.length === pkg.resources.length) return pkg;
  const reached = new Map<string, TypeDef>();
  const visit = (name: string) => {
    const def = pkg.types.get(name);
    if (!def || reached.has(name)) return;
    reached.set(name, def);
    if (def.kind === 'object') for (const p of def.properties) refsOf(p.type).forEach(visit);
  };
  for (const r of resources) {
    visit(r.specType);
    visit(r.statusType);
    for (const leaf of r.oneOf ?? []) {
      visit(leaf.specType);
      visit(leaf.statusType);
    }
  }
  // In the package's own order, which the emitters keep.
  const types = new Map([...pkg.types].filter(([name]) => reached.has(name)));
  return { ...pkg, resources, types };
}

function refsOf(ref: TypeRef): string[] {
  switch (ref.kind) {
    case 'primitive':
      return [];
    case 'enum':
    case 'object':
      return [ref.name];
    case 'array':
      return refsOf(ref.element);
    case 'map':
      return refsOf(ref.value);
  }
}
