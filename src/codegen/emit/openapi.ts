import {
  declaresBag,
  isCurrentPrefix,
  type PackageDef,
  type TypeRef,
  validationsOf,
} from '../model/types.ts';

/** A JSON schema node of a CRD's openAPIV3Schema. */
export type OpenApi = Record<string, unknown>;

/**
 * The openAPIV3Schema of one object type of a package. Descriptions are kept only for GA API versions
 * (seed 003: prune documentation from compatibility and storage variants to keep CRDs small); patterns are
 * enforced only on API versions (and on the operator's runtime types everywhere), since storage variants
 * must accept whatever any version held. The validations are the operator's, no more.
 */
export function objectSchema(pkg: PackageDef, name: string, seen: ReadonlySet<string> = new Set()): OpenApi {
  const def = pkg.types.get(name);
  if (def?.kind !== 'object') throw new Error(`${pkg.group}/${pkg.version}: no object type ${name}`);
  if (seen.has(name)) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const next = new Set([...seen, name]);
  const properties: Record<string, OpenApi> = {};
  // The operator validates what a user writes: its CRDs carry no enum or pattern on a status property,
  // but for the few status types its generator keeps validated.
  const status = def.name.endsWith('_STATUS') && def.validatedStatus !== true;
  for (const p of def.properties) {
    const schema = refSchema(pkg, p.type, next, status);
    if (documented(pkg) && p.description) schema.description = p.description;
    // A runtime type is the same Go type, validations included, in every version.
    const validated = (!pkg.storage || def.runtime === true) && !status;
    if (validated && (p.type.kind === 'primitive' || p.type.kind === 'array'))
      Object.assign(schema, validationsOf(p));
    if (validated && p.items && p.type.kind === 'array' && p.type.element.kind === 'primitive')
      Object.assign(schema.items as OpenApi, validationsOf(p.items));
    if (p.format && p.type.kind === 'primitive') schema.format = p.format;
    properties[p.name] = schema;
  }
  // As in the operator's CRDs, only the generated types of storage variants declare the bag.
  if (declaresBag(pkg, def))
    properties.$propertyBag = { type: 'object', additionalProperties: { type: 'string' } };
  const out: OpenApi = { type: 'object' };
  if (documented(pkg) && def.description) out.description = def.description;
  out.properties = properties;
  // Sorted, as controller-gen writes them.
  const required = def.properties
    .filter((p) => p.required)
    .map((p) => p.name)
    .sort();
  if (required.length > 0) out.required = required;
  return out;
}

function documented(pkg: PackageDef): boolean {
  return isCurrentPrefix(pkg.prefix) && !pkg.storage;
}

function refSchema(pkg: PackageDef, ref: TypeRef, seen: ReadonlySet<string>, status: boolean): OpenApi {
  switch (ref.kind) {
    case 'primitive':
      // As controller-gen writes a `v1.JSON`: no type at all, anything kept.
      if (ref.primitive === 'json') return { 'x-kubernetes-preserve-unknown-fields': true };
      return { type: ref.primitive };
    case 'enum': {
      const def = pkg.types.get(ref.name);
      if (def?.kind !== 'enum') throw new Error(`${pkg.group}/${pkg.version}: no enum ${ref.name}`);
      return status ? { type: def.base } : { type: def.base, enum: [...def.values] };
    }
    case 'object':
      return objectSchema(pkg, ref.name, seen);
    case 'array':
      return { type: 'array', items: refSchema(pkg, ref.element, seen, status) };
    case 'map':
      return { type: 'object', additionalProperties: refSchema(pkg, ref.value, seen, status) };
  }
}
