import { isCurrentPrefix, type ObjectDef, type PackageDef, type TypeRef } from '../model/types.ts';
import { oneOfOptions } from './arbitraries-emitter.ts';

/** A JSON schema node of a CRD's openAPIV3Schema. */
export type OpenApi = Record<string, unknown>;

/**
 * The openAPIV3Schema of one object type of a package. Descriptions are kept only for GA API versions
 * (seed 003: prune documentation from compatibility and storage variants to keep CRDs small); patterns are
 * enforced only on API versions, since storage variants must accept whatever any version held.
 */
export function objectSchema(pkg: PackageDef, name: string, seen: ReadonlySet<string> = new Set()): OpenApi {
  const def = pkg.types.get(name);
  if (def?.kind !== 'object') throw new Error(`${pkg.group}/${pkg.version}: no object type ${name}`);
  if (seen.has(name)) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const next = new Set([...seen, name]);
  const properties: Record<string, OpenApi> = {};
  for (const p of def.properties) {
    const schema = refSchema(pkg, p.type, next);
    if (documented(pkg) && p.description) schema.description = p.description;
    if (!pkg.storage && p.pattern && p.type.kind === 'primitive') schema.pattern = p.pattern;
    if (!pkg.storage && p.name === 'owner' && isOwnerReference(pkg, p.type))
      schema['x-kubernetes-validations'] = [ownerRule];
    properties[p.name] = schema;
  }
  // Every object, API versions included, declares the bag: a structural schema prunes undeclared keys, so
  // a value another version set must sit in a declared field to survive a GET and PUT at this version.
  properties.$propertyBag = { type: 'object', additionalProperties: { type: 'string' } };
  const out: OpenApi = { type: 'object' };
  if (documented(pkg) && def.description) out.description = def.description;
  out.properties = properties;
  const required = def.properties.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) out.required = required;
  if (def.oneOf && !pkg.storage && !def.name.endsWith('_STATUS'))
    out['x-kubernetes-validations'] = [oneOfRule(def)];
  return out;
}

/**
 * An owner reference names its owner either as a Kubernetes object (`name`, with `group` and `kind` on
 * extension resources) or as an Azure resource (`armId`), never both (aso-conventions.md).
 */
const ownerRule: OpenApi = {
  rule: '!(has(self.name) && has(self.armId))',
  message: 'owner: set name (a Kubernetes object) or armId (an Azure resource), not both',
};

function isOwnerReference(pkg: PackageDef, ref: TypeRef): boolean {
  if (ref.kind !== 'object') return false;
  const def = pkg.types.get(ref.name);
  const names = def?.kind === 'object' ? def.properties.map((p) => p.name) : [];
  return names.includes('name') && names.includes('armId');
}

function documented(pkg: PackageDef): boolean {
  return isCurrentPrefix(pkg.prefix) && !pkg.storage;
}

function oneOfRule(def: ObjectDef): OpenApi {
  const options = oneOfOptions(def);
  return {
    rule: `[${options.map((p) => `has(self.${p.name})`).join(', ')}].exists_one(x, x)`,
    message: `exactly one of ${options.map((p) => p.name).join(', ')} must be set`,
  };
}

function refSchema(pkg: PackageDef, ref: TypeRef, seen: ReadonlySet<string>): OpenApi {
  switch (ref.kind) {
    case 'primitive':
      return { type: ref.primitive };
    case 'enum': {
      const def = pkg.types.get(ref.name);
      if (def?.kind !== 'enum') throw new Error(`${pkg.group}/${pkg.version}: no enum ${ref.name}`);
      return { type: def.base, enum: [...def.values] };
    }
    case 'object':
      return objectSchema(pkg, ref.name, seen);
    case 'array':
      return { type: 'array', items: refSchema(pkg, ref.element, seen) };
    case 'map':
      return { type: 'object', additionalProperties: refSchema(pkg, ref.value, seen) };
  }
}
