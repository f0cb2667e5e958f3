import { type Validations, validationsOf } from '../model/types.ts';
import type { Hints } from './hints.ts';
import type { Field } from './reverse.ts';

/** A JSON value as the schema files hold it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Definition names already given out in one package (provider and API version): the generator builds one
 * set of types per package, so one name must mean one shape across the package's files.
 *
 * One Go type can reach the CRD in two shapes, though: where the spec holds it, with the spec's required
 * fields and the status's read-only flags; and below a property only the status has, with neither (a VM's
 * `KeyVaultSecretReference` in its spec and in its status's extensions). Those are one type, as in the
 * operator's package: the generator builds the spec type from the spec's shape and the status type from
 * either, and the two read the same for a status.
 */
export class DefinitionNames {
  private readonly shapes = new Map<string, { key: string; statusKey: string; inSpec: boolean }>();

  /**
   * `wanted` if it is free or names the same shape; otherwise `owner + wanted`, then numbered. A shape's own
   * description is not part of it: the CRD gives an object the comment of the field holding it, so one Go
   * type (network's `SubResource`) reads differently in every property that holds it. `inSpec` says the
   * spec holds this occurrence.
   */
  claim(wanted: string, owner: string, shape: Json, inSpec = true): string {
    const key = JSON.stringify(withoutOwnDescription(shape));
    const statusKey = JSON.stringify(statusView(shape));
    const candidates = [wanted, `${owner}${wanted}`];
    for (let i = 2; i < 100; i++) candidates.push(`${owner}${wanted}${i}`);
    for (const name of candidates) {
      const taken = this.shapes.get(name);
      if (taken === undefined || taken.key === key) {
        if (taken === undefined) this.shapes.set(name, { key, statusKey, inSpec });
        return name;
      }
      if (taken.statusKey === statusKey && !(taken.inSpec && inSpec)) {
        if (inSpec) this.shapes.set(name, { key, statusKey, inSpec });
        return name;
      }
    }
    throw new Error(`no free definition name for ${wanted} in ${owner}`);
  }
}

function withoutOwnDescription(shape: Json): Json {
  if (shape === null || typeof shape !== 'object' || Array.isArray(shape)) return shape;
  const { description: _description, ...rest } = shape;
  return rest;
}

/** What of a definition its status type is built from: no required fields, no flags that only a spec reads. */
function statusView(shape: Json): Json {
  if (shape === null || typeof shape !== 'object' || Array.isArray(shape)) return shape;
  const { description: _description, required: _required, properties, ...rest } = shape;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return rest;
  const kept: Record<string, Json> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property === null || typeof property !== 'object' || Array.isArray(property)) continue;
    // ARM never returns a property it cannot read (a secret): no status has it.
    const mutability = property['x-ms-mutability'];
    if (Array.isArray(mutability) && !mutability.includes('read')) continue;
    const {
      description: _d,
      readOnly: _r,
      'x-aso-status-only-enum': _e,
      'x-aso-spec-integer': _i,
      ...others
    } = property;
    kept[name] = others;
  }
  return { ...rest, properties: kept };
}

/** ARM's own root properties: where an ARM body carries them when no earlier schema says otherwise. */
const armRoot = new Set([
  'location',
  'tags',
  'sku',
  'identity',
  'kind',
  'plan',
  'zones',
  'extendedLocation',
  'managedBy',
  'etag',
  'systemData',
]);

/** What the import knows of the resource it writes. */
export interface Resource {
  readonly provider: string;
  readonly typePath: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly fields: Field;
  readonly hints: Hints;
  /**
   * The one name ARM allows (a blob service is always `default`): written as ARM's schemas write it, a
   * `name` enum of one value, from which the generator leaves `azureName` out.
   */
  readonly fixedName?: string;
  /** What ARM allows as a name (the operator's CRD states it on `azureName`): pattern and bounds. */
  readonly nameRules?: Validations | undefined;
  /**
   * Enum values of status properties by path, from the operator's Go types; absent when that source is
   * not at hand, and the values the replaced schema had (`hints.enumValues`) are kept instead.
   */
  readonly statusEnums?: ReadonlyMap<string, readonly string[]>;
  /** The operator's name for the resource's status type, where it is not `<Kind>_STATUS`. */
  readonly statusType?: string | undefined;
}

/** One leaf of a oneOf resource (seed 004): its definition name and its fields, as a resource's. */
export interface Leaf {
  readonly name: string;
  readonly fields: Field;
  readonly hints: Hints;
  /** As {@link Resource.statusEnums}, by path within the leaf. */
  readonly statusEnums?: ReadonlyMap<string, readonly string[]>;
}

/** A oneOf resource (seed 004): one leaf per ARM `kind`, each a resource body of its own. */
export interface OneOfResource {
  readonly provider: string;
  readonly typePath: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly description?: string | undefined;
  readonly leaves: readonly Leaf[];
  /** As {@link Resource.nameRules}. */
  readonly nameRules?: Validations | undefined;
}

/**
 * Writes a resource as an ARM deployment-style schema, the generator's input: boilerplate root properties,
 * the rest split between the root and `properties` as ARM's body has them, every object a named definition.
 * Returns the document and, by path, the definition each object was given (to check the config against).
 */
export function armSchema(
  resource: Resource,
  names: DefinitionNames,
): { document: Json; definitionAt: ReadonlyMap<string, string> } {
  const {
    provider,
    typePath,
    apiVersion,
    kind,
    fields,
    hints,
    fixedName,
    statusEnums,
    nameRules,
    statusType,
  } = resource;
  const resourceType = `${provider}/${typePath}`;
  const definitions: Record<string, Json> = {};
  const definitionAt = new Map<string, string>();
  const lastSegment = typePath.split('/').at(-1) ?? typePath;
  const body = bodyOf(fields, kind, hints, names, definitions, definitionAt, statusEnums);
  const rootProps: Record<string, Json> = {
    name: {
      type: 'string',
      description: `The name of the ${lastSegment} resource.`,
      ...(fixedName !== undefined ? { enum: [fixedName] } : {}),
      ...validationsOf(nameRules),
    },
    type: { type: 'string', enum: [resourceType] },
    apiVersion: { type: 'string', enum: [apiVersion] },
    id: { type: 'string', description: 'Fully qualified resource ID.', readOnly: true },
    ...body.properties,
  };
  const rootRequired = ['name', 'type', 'apiVersion', ...body.required];
  const definitionKey = typePath.replaceAll('/', '_');
  const document: Json = {
    ...header(provider, typePath, apiVersion, kind),
    resourceDefinitions: {
      [definitionKey]: {
        type: 'object',
        ...(hints.description ? { description: hints.description } : {}),
        ...(statusType !== undefined && statusType !== `${kind}_STATUS`
          ? { 'x-aso-status-type': statusType }
          : {}),
        properties: rootProps,
        required: rootRequired,
      },
    },
    definitions,
  };
  return { document, definitionAt };
}

/**
 * {@link armSchema} for a oneOf resource: the resource definition lists the leaves, each a definition with
 * the name, ID and `kind` ARM's body has, the rest as a resource's. `definitionAt` is by leaf, then path.
 */
export function oneOfArmSchema(
  resource: OneOfResource,
  names: DefinitionNames,
): { document: Json; definitionAt: ReadonlyMap<string, ReadonlyMap<string, string>> } {
  const { provider, typePath, apiVersion, kind } = resource;
  const definitions: Record<string, Json> = {};
  const byLeaf = new Map<string, ReadonlyMap<string, string>>();
  const lastSegment = typePath.split('/').at(-1) ?? typePath;
  for (const leaf of resource.leaves) {
    const definitionAt = new Map<string, string>();
    const body = bodyOf(
      leaf.fields,
      leaf.name,
      leaf.hints,
      names,
      definitions,
      definitionAt,
      leaf.statusEnums,
    );
    const shape: Json = {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          description: `The name of the ${lastSegment} resource.`,
          ...validationsOf(resource.nameRules),
        },
        id: { type: 'string', description: 'Fully qualified resource ID.', readOnly: true },
        ...body.properties,
      },
      required: ['name', ...body.required],
    };
    definitions[names.claim(leaf.name, '', shape)] = shape;
    byLeaf.set(leaf.name, definitionAt);
  }
  const definitionKey = typePath.replaceAll('/', '_');
  const document: Json = {
    ...header(provider, typePath, apiVersion, kind),
    resourceDefinitions: {
      [definitionKey]: {
        oneOf: resource.leaves.map((l) => ({ $ref: `#/definitions/${l.name}` })),
        discriminator: 'kind',
        ...(resource.description ? { description: resource.description } : {}),
        properties: {
          type: { type: 'string', enum: [`${provider}/${typePath}`] },
          apiVersion: { type: 'string', enum: [apiVersion] },
        },
        required: ['type', 'apiVersion'],
      },
    },
    definitions,
  };
  return { document, definitionAt: byLeaf };
}

function header(provider: string, typePath: string, apiVersion: string, kind: string): Record<string, Json> {
  const definitionKey = typePath.replaceAll('/', '_');
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    id: `https://schema.management.azure.com/schemas/${apiVersion}/${provider}.json#/resourceDefinitions/${definitionKey}`,
    title: provider,
    description: `${provider} ${typePath} (ARM API version ${apiVersion}), imported by kubectl-aso's \`npm run schemas:import\` from Azure Service Operator's CRD for ${kind}.`,
    resourceType: `${provider}/${typePath}`,
    apiVersion,
  };
}

/**
 * The properties of an ARM body (without name, type, apiVersion and id): ARM's root properties at the root,
 * the rest under `properties`, every object a named definition added to `definitions`.
 */
function bodyOf(
  fields: Field,
  kind: string,
  hints: Hints,
  names: DefinitionNames,
  definitions: Record<string, Json>,
  definitionAt: Map<string, string>,
  statusEnums?: ReadonlyMap<string, readonly string[]>,
): { properties: Record<string, Json>; required: string[] } {
  // A CRD's spec has its enums; a status enum is known from the operator's Go types, else from the schema
  // replaced (which the Go types wrote, so importing without them changes nothing).
  const enumOf = (field: Field, path: string) => {
    if (field.enum || !statusEnums) return field.enum ?? hints.enumValues.get(path);
    const values = statusEnums.get(path);
    const kept = hints.enumValues.get(path);
    // The same values in the replaced schema's order: the generated types stay as they were.
    const same = values && kept?.length === values.length && values.every((v) => kept.includes(v));
    return same ? kept : values;
  };
  const propertyOf = (field: Field, path: string, name: string, owner: string): Record<string, Json> => {
    const out: Record<string, Json> = {};
    if (field.description) out.description = field.description;
    if (field.readOnly) out.readOnly = true;
    const mutability = hints.mutability.get(path);
    if (field.writeOnly) {
      const kept = (mutability ?? ['create', 'update']).filter((m) => m !== 'read');
      out['x-ms-mutability'] = kept.length > 0 ? kept : ['create'];
    } else if (mutability) out['x-ms-mutability'] = [...mutability];
    return { ...out, ...typeOf(field, path, name, owner) };
  };

  const typeOf = (field: Field, path: string, name: string, owner: string): Record<string, Json> => {
    switch (field.type) {
      case 'array':
        return {
          type: 'array',
          items: typeOf(elementOf(field), `${path}[]`, singular(name), owner),
          ...validationsOf(field),
        };
      case 'map':
        return {
          type: 'object',
          additionalProperties: typeOf(elementOf(field), `${path}{}`, singular(name), owner),
        };
      case 'object':
        return { $ref: `#/definitions/${definitionOf(field, path, name, owner)}` };
      case 'json':
        return { type: 'object' };
      default: {
        const out: Record<string, Json> = { type: field.type };
        const values = enumOf(field, path);
        if (values) {
          out.enum = [...values];
          const enumName = hints.enums.get(path);
          if (enumName) out['x-ms-enum'] = { name: enumName };
          // Values the CRD's spec lacks came from the status's Go type: an enum for the status alone.
          if (field.enum === undefined && field.inSpec) out['x-aso-status-only-enum'] = true;
        }
        Object.assign(out, validationsOf(field));
        if (field.format) out.format = field.format;
        if (field.specInteger) out['x-aso-spec-integer'] = true;
        return out;
      }
    }
  };

  const objectOf = (field: Field, path: string, owner: string, only?: (name: string) => boolean) => {
    const properties: Record<string, Json> = {};
    for (const [child, value] of field.properties ?? []) {
      if (only && !only(child)) continue;
      const at = path === '' ? child : `${path}.${child}`;
      properties[child] = propertyOf(value, at, child, owner);
    }
    const required = (field.required ?? []).filter((r) => r in properties);
    const out: Record<string, Json> = { type: 'object', properties };
    if (field.description && path !== '') out.description = field.description;
    if (required.length > 0) out.required = required;
    if (field.validatedStatus) out['x-aso-validated-status'] = true;
    return out;
  };

  const definitionOf = (field: Field, path: string, name: string, owner: string): string => {
    const wanted =
      hints.definitions.get(path) ??
      (path === 'properties' ? hints.propertiesDefinition : undefined) ??
      pascal(name);
    // Children first: the definition's shape includes the names they were given.
    const shape = objectOf(field, path, wanted);
    const chosen = names.claim(wanted, owner, shape, field.inSpec);
    // A status-only occurrence of a type the file already holds from its spec leaves the spec's shape.
    if (field.inSpec || !(chosen in definitions)) definitions[chosen] = shape;
    definitionAt.set(path, chosen);
    return chosen;
  };

  const atRoot = (name: string) => hints.root.has(name) || armRoot.has(name);
  // A `properties` beside nothing but ARM's root properties is ARM's own, which the operator does not flatten
  // (Key Vault's spec); beside others, those are ARM's flattened `properties` and it is one of them (an API
  // Management backend's `properties.properties`, its Service Fabric settings).
  const flattenedBeside = [...(fields.properties?.keys() ?? [])].some(
    (n) => n !== 'properties' && !atRoot(n),
  );
  const unflattened = flattenedBeside ? undefined : fields.properties?.get('properties');
  const root = objectOf(fields, '', kind, (n) => n !== 'properties' && atRoot(n));
  const properties: Record<string, Json> = { ...(root.properties as Record<string, Json>) };
  if (unflattened?.type === 'object') {
    properties.properties = {
      ...propertyOf(unflattened, 'properties', 'properties', kind),
      'x-ms-client-flatten': false,
    };
  } else {
    const inner = objectOf(fields, '', kind, (n) => !atRoot(n));
    if (Object.keys(inner.properties as Record<string, Json>).length > 0) {
      const wanted = hints.propertiesDefinition ?? `${kind}Properties`;
      const chosen = names.claim(wanted, kind, inner);
      definitions[chosen] = inner;
      properties.properties = { $ref: `#/definitions/${chosen}` };
    }
  }
  const required = (root.required as string[] | undefined) ?? [];
  // An unflattened `properties` the operator requires stays required (Key Vault's spec).
  if (unflattened?.type === 'object' && fields.required?.includes('properties')) required.push('properties');
  return { properties, required };
}

function elementOf(field: Field): Field {
  if (!field.element) throw new Error(`${field.type} without an element`);
  return field.element;
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('ses')) return name.slice(0, -2);
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

/** JSON text with every object's keys sorted, so the same schema is always the same bytes. */
export function stableJson(value: Json): string {
  const sort = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort(v[k] as Json)]),
      );
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}
