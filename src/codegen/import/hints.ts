import { existsSync, readFileSync } from 'node:fs';
import type { JsonSchema } from '../stages/load-schemas.ts';

/**
 * What an ARM schema says that a CRD does not: the names of its definitions and enums (the generated types
 * are named after them, and the config and hooks name those types), where a property sits in the ARM body
 * (at the root or under `properties`), its `x-ms-mutability`, and the resource's description. The import
 * keeps these from the schema it replaces, so that importing again changes nothing.
 */
export interface Hints {
  readonly description?: string;
  /** Name of the definition of the resource's `properties`. */
  readonly propertiesDefinition?: string;
  /** Flattened paths of the properties at the ARM root (`location`, `sku`). */
  readonly root: ReadonlySet<string>;
  /** Definition name by path of the object it describes (`network`, `ipRules[]`, `identity.userAssignedIdentities{}`). */
  readonly definitions: ReadonlyMap<string, string>;
  /** `x-ms-enum` name by property path. */
  readonly enums: ReadonlyMap<string, string>;
  /**
   * Enum values by property path. A CRD has them for the spec only, but the operator gives status enums
   * their canonical spelling too (`systemData.createdByType`), so the values the schema had are kept.
   */
  readonly enumValues: ReadonlyMap<string, readonly (string | number)[]>;
  /** `x-ms-mutability` by property path. */
  readonly mutability: ReadonlyMap<string, readonly string[]>;
}

/** No schema to learn from: every name is made up by the import's own rule. */
export const noHints: Hints = {
  root: new Set(),
  definitions: new Map(),
  enums: new Map(),
  enumValues: new Map(),
  mutability: new Map(),
};

const boilerplate = new Set(['name', 'type', 'apiVersion', 'id', 'properties']);

/**
 * The hints an existing schema file gives; none when there is no such file yet. `leaf` names the
 * definition of one leaf of a oneOf resource (seed 004): its properties are hinted as a resource's.
 */
export function readHints(path: string, leaf?: string): Hints {
  if (!existsSync(path)) return noHints;
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    resourceDefinitions?: Record<string, JsonSchema>;
    definitions?: Record<string, JsonSchema>;
  };
  const definitions = doc.definitions ?? {};
  const root = Object.values(doc.resourceDefinitions ?? {})[0];
  const resource = leaf === undefined ? root : definitions[leaf];
  if (!resource) return noHints;
  const hints = {
    root: new Set<string>(),
    definitions: new Map<string, string>(),
    enums: new Map<string, string>(),
    enumValues: new Map<string, readonly (string | number)[]>(),
    mutability: new Map<string, readonly string[]>(),
  };
  const refName = (ref: string) => ref.replace('#/definitions/', '');
  const visit = (prop: JsonSchema, path: string, depth: number) => {
    if (depth > 20) return;
    if (prop['x-ms-mutability']) hints.mutability.set(path, prop['x-ms-mutability']);
    if (prop['x-ms-enum']?.name) hints.enums.set(path, prop['x-ms-enum'].name);
    if (prop.enum) hints.enumValues.set(path, prop.enum);
    if (prop.$ref) {
      const name = refName(prop.$ref);
      const def = definitions[name];
      if (def?.enum) {
        hints.enums.set(path, def['x-ms-enum']?.name ?? name);
        hints.enumValues.set(path, def.enum);
        return;
      }
      hints.definitions.set(path, name);
      for (const [child, schema] of Object.entries(def?.properties ?? {}))
        visit(schema, path === '' ? child : `${path}.${child}`, depth + 1);
      return;
    }
    if (prop.items) visit(prop.items, `${path}[]`, depth + 1);
    if (typeof prop.additionalProperties === 'object')
      visit(prop.additionalProperties, `${path}{}`, depth + 1);
  };
  for (const [name, prop] of Object.entries(resource.properties ?? {})) {
    if (boilerplate.has(name)) continue;
    hints.root.add(name);
    visit(prop, name, 0);
  }
  const propertiesRef = resource.properties?.properties?.$ref;
  const propertiesDefinition = propertiesRef ? refName(propertiesRef) : undefined;
  if (propertiesDefinition) {
    if (resource.properties?.properties?.['x-ms-client-flatten'] === false) {
      hints.root.add('properties');
      visit(resource.properties.properties, 'properties', 0);
    } else {
      for (const [name, prop] of Object.entries(definitions[propertiesDefinition]?.properties ?? {}))
        visit(prop, name, 0);
    }
  }
  return { ...hints, description: root?.description, propertiesDefinition };
}
