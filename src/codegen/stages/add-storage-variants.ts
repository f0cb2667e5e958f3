import { secretReference } from '../model/shared-types.ts';
import type { ObjectDef, PackageDef, PropertyDef, TypeDef, TypeRef } from '../model/types.ts';
import { storageName } from '../model/versions.ts';
import { stage } from '../stage.ts';

/**
 * Adds the storage variant beside every API package (seed 000): every property optional, enums reduced to
 * their underlying type, a property bag on every generated object (runtime types stay as they are), and
 * `originalVersion` on each resource spec.
 */
export const addStorageVariants = stage({
  id: 'addStorageVariants',
  description: 'Add a storage variant beside every API package',
  needs: ['buildApiPackages', 'addCompatibilityVersions'],
  run: (state) => {
    const api = state.packages.filter((p) => !p.storage);
    state.packages.push(...api.map(storageVariantOf));
  },
});

/** The storage variant of one API package. */
export function storageVariantOf(pkg: PackageDef): PackageDef {
  const specs = new Set(pkg.resources.map((r) => r.specType));
  const types = new Map<string, TypeDef>();
  for (const def of pkg.types.values()) {
    if (def.kind === 'enum') continue;
    // The operator's runtime types are one Go type at every version: the storage variant uses it as is.
    types.set(def.name, def.runtime ? def : storageObject(pkg, def, specs.has(def.name)));
  }
  return { ...pkg, version: storageName(pkg.version), storage: true, types };
}

function storageObject(pkg: PackageDef, def: ObjectDef, isSpec: boolean): ObjectDef {
  const properties: PropertyDef[] = def.properties.map((p) => ({
    ...p,
    // As in the operator: a required runtime-typed property (the owner, a required reference) stays
    // required, since its Go field keeps its validation marker in the storage variant; a required secret
    // does not (no storage version of v2.20.0 requires one: IoT Hub's storage endpoint connection string).
    required:
      p.required &&
      isRuntimeObject(pkg, p.type) &&
      !(p.type.kind === 'object' && p.type.name === secretReference.name),
    type: storageRef(pkg, p.type),
  }));
  if (isSpec) {
    properties.push({
      name: 'originalVersion',
      type: { kind: 'primitive', primitive: 'string' },
      required: false,
      arm: 'none',
      description: 'The API version the object was written in.',
      goValue: 'omitZero',
    });
  }
  return { ...def, properties };
}

function isRuntimeObject(pkg: PackageDef, ref: TypeRef): boolean {
  if (ref.kind !== 'object') return false;
  const def = pkg.types.get(ref.name);
  return def?.kind === 'object' && def.runtime === true;
}

function storageRef(pkg: PackageDef, ref: TypeRef): TypeRef {
  switch (ref.kind) {
    case 'enum': {
      const def = pkg.types.get(ref.name);
      if (def?.kind !== 'enum')
        throw new Error(`${pkg.group}/${pkg.version}: enum ${ref.name} is not defined`);
      return { kind: 'primitive', primitive: def.base };
    }
    case 'array':
      return { kind: 'array', element: storageRef(pkg, ref.element) };
    case 'map':
      return { kind: 'map', value: storageRef(pkg, ref.value) };
    default:
      return ref;
  }
}
