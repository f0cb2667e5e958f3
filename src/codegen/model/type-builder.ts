import type { JsonSchema, RawSchema } from '../stages/load-schemas.ts';
import { statusName } from './names.ts';
import {
  type ArmPlacement,
  type ObjectDef,
  type PropertyDef,
  type TypeDef,
  type TypeRef,
  type Validations,
  validationsOf,
} from './types.ts';

/** Which side of a resource a type is built for: the spec drops read-only properties, the status keeps all. */
export type Side = 'spec' | 'status';

/**
 * Turns ARM JSON schema definitions into named types of one package, ASO-style: spec types keep the ARM
 * name, status types get `_STATUS`, enums are named by `x-ms-enum`. A name reused for a different shape
 * within one package fails, naming both.
 */
export class TypeBuilder {
  readonly types = new Map<string, TypeDef>();
  private readonly origin = new Map<string, string>();

  /** Adds a type built elsewhere (the shared reference and condition types). */
  add(def: TypeDef, from: string): void {
    const existing = this.types.get(def.name);
    if (existing) {
      if (JSON.stringify(existing) !== JSON.stringify(def)) {
        throw new Error(
          `type ${def.name} from ${from} differs from the one from ${this.origin.get(def.name)}`,
        );
      }
      return;
    }
    this.types.set(def.name, def);
    this.origin.set(def.name, from);
  }

  /** The type reference for a property schema, building the named types it uses. */
  ref(schema: RawSchema, prop: JsonSchema, owner: string, property: string, side: Side): TypeRef {
    if (prop.$ref) return this.named(schema, prop.$ref, side);
    if (prop.enum && !(side === 'spec' && prop['x-aso-status-only-enum']))
      return this.enumOf(schema, prop, prop['x-ms-enum']?.name ?? `${owner}_${upper(property)}`, side);
    switch (prop.type) {
      case 'number':
        if (side === 'spec' && prop['x-aso-spec-integer']) return { kind: 'primitive', primitive: 'integer' };
        return { kind: 'primitive', primitive: prop.type };
      case 'string':
      case 'integer':
      case 'boolean':
        return { kind: 'primitive', primitive: prop.type };
      case 'array':
        if (!prop.items) throw new Error(`${schema.file}: ${owner}.${property} is an array without items`);
        return { kind: 'array', element: this.ref(schema, prop.items, owner, property, side) };
      case 'object':
        if (typeof prop.additionalProperties === 'object') {
          return { kind: 'map', value: this.ref(schema, prop.additionalProperties, owner, property, side) };
        }
        // ARM's schemaless object: any JSON, as the operator's `v1.JSON`.
        if (prop.properties === undefined) return { kind: 'primitive', primitive: 'json' };
        throw new Error(`${schema.file}: ${owner}.${property}: inline objects must be named definitions`);
      default:
        throw new Error(`${schema.file}: ${owner}.${property}: unsupported type ${String(prop.type)}`);
    }
  }

  /** The properties of an object schema for one side, in schema order. */
  properties(
    schema: RawSchema,
    def: JsonSchema,
    owner: string,
    side: Side,
    arm?: ArmPlacement,
  ): PropertyDef[] {
    const required = new Set(def.required ?? []);
    const out: PropertyDef[] = [];
    for (const [name, prop] of Object.entries(def.properties ?? {})) {
      const target = prop.$ref ? this.definition(schema, prop.$ref) : prop;
      if (side === 'spec' && (prop.readOnly || target.readOnly)) continue;
      // Write-only in ARM (a secret, say): ARM never returns it, so no status has it.
      if (side === 'status' && prop['x-ms-mutability'] && !prop['x-ms-mutability'].includes('read')) continue;
      out.push({
        name,
        type: this.ref(schema, prop, owner, name, side),
        required: (side === 'spec' || def['x-aso-validated-status'] === true) && required.has(name),
        description: prop.description,
        readOnly: prop.readOnly,
        immutable: prop['x-ms-mutability'] !== undefined && !prop['x-ms-mutability'].includes('update'),
        ...(side === 'spec' &&
        prop['x-ms-mutability'] !== undefined &&
        !prop['x-ms-mutability'].includes('read')
          ? { writeOnly: true }
          : {}),
        ...validationsOf(prop),
        format: prop.format,
        arm,
        ...(side === 'spec' && prop['x-arm-path'] !== undefined ? { armPath: prop['x-arm-path'] } : {}),
        ...itemValidations(prop),
      });
    }
    return out;
  }

  /** The definition a `$ref` points at. */
  definition(schema: RawSchema, ref: string): JsonSchema {
    const name = ref.replace('#/definitions/', '');
    const def = schema.definitions[name];
    if (!def) throw new Error(`${schema.file}: $ref ${ref} does not resolve`);
    return def;
  }

  private named(schema: RawSchema, ref: string, side: Side): TypeRef {
    const name = ref.replace('#/definitions/', '');
    const def = this.definition(schema, ref);
    if (def.enum) return this.enumOf(schema, def, def['x-ms-enum']?.name ?? name, side);
    const typeName = side === 'status' ? statusName(name) : name;
    if (!this.types.has(typeName)) {
      const object: ObjectDef = {
        kind: 'object',
        name: typeName,
        description: def.description,
        properties: this.properties(schema, def, name, side),
        ...(side === 'status' && def['x-aso-validated-status'] ? { validatedStatus: true } : {}),
        ...(side === 'spec' && def['x-arm-one-of'] !== undefined ? { armOneOf: def['x-arm-one-of'] } : {}),
      };
      this.add(object, schema.file);
    }
    return { kind: 'object', name: typeName };
  }

  private enumOf(schema: RawSchema, prop: JsonSchema, name: string, side: Side): TypeRef {
    const typeName = side === 'status' ? statusName(name) : name;
    const base = prop.type === 'integer' ? 'integer' : 'string';
    this.add({ kind: 'enum', name: typeName, base, values: [...(prop.enum ?? [])] }, schema.file);
    return { kind: 'enum', name: typeName };
  }
}

function upper(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The validations of a list's primitive items, when the schema states any. */
function itemValidations(prop: JsonSchema): { items?: Validations } {
  const items = prop.type === 'array' && prop.items && !prop.items.$ref ? validationsOf(prop.items) : {};
  return Object.keys(items).length > 0 ? { items } : {};
}
