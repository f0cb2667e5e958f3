import { isObject, setKey } from './checks.ts';
import { ConversionError } from './errors.ts';
import type { KubeObject } from './resource.ts';

/**
 * How a property's value goes into an ARM body: `0` as is (a primitive or enum), an object of a named type
 * of the version (only that type's properties are sent), or an array or map of such values.
 */
export type ArmValue =
  | 0
  | { readonly object: string }
  | { readonly array: ArmValue }
  | { readonly map: ArmValue };

/** The properties of one nested object type of a version, each with how its value is sent. */
export type ArmObject = Readonly<Record<string, ArmValue>>;

/**
 * Where each spec/status property of one object sits in ARM: at the root, or inside `properties`; for the
 * spec, how each property's value is sent (`values`), nested types in the layout's `objects`.
 */
export interface ArmFields {
  readonly root: readonly string[];
  readonly properties: readonly string[];
  readonly values?: ArmObject;
}

/** The ARM layout of a resource version; a oneOf root (seed 004) has one layout per leaf. */
export type ArmLayout =
  | {
      readonly kind: 'plain';
      readonly spec: ArmFields;
      readonly status: ArmFields;
      readonly objects?: Readonly<Record<string, ArmObject>>;
    }
  | {
      readonly kind: 'oneOf';
      readonly objects?: Readonly<Record<string, ArmObject>>;
      readonly leaves: readonly {
        readonly property: string;
        readonly kindValue: string;
        readonly spec: ArmFields;
        readonly status: ArmFields;
      }[];
    };

/** The spec cannot be turned into an ARM body (for a oneOf root: not exactly one option set). */
export class ArmPayloadError extends ConversionError {}

/**
 * The ARM PUT body for an object's spec: `name` from `azureName` (defaulted to metadata.name), root
 * properties at the root, the rest re-nested under `properties`; `azureName` and `owner` are dropped. Only
 * properties of this version's types are sent, at every depth: a value another version set (a plain key
 * or one in a `$propertyBag`) is not part of this API version, and ARM would reject or misread it.
 */
export function armBody(object: KubeObject, layout: ArmLayout): Record<string, unknown> {
  const spec = isObject(object.spec) ? object.spec : {};
  const fallbackName = typeof object.metadata?.name === 'string' ? object.metadata.name : undefined;
  const objects = layout.objects ?? {};
  if (layout.kind === 'plain') return nest(spec, layout.spec, fallbackName, objects);
  const set = layout.leaves.filter((leaf) => spec[leaf.property] !== undefined);
  if (set.length !== 1) {
    throw new ArmPayloadError(
      `spec: exactly one of ${layout.leaves.map((l) => l.property).join(', ')} must be set (found ${set.length})`,
    );
  }
  const leaf = set[0]!;
  const value = spec[leaf.property];
  return nest(isObject(value) ? value : {}, leaf.spec, fallbackName, objects);
}

/** The status an ARM GET response describes: `properties` flattened back, identity fields kept. */
export function statusFromArm(response: Record<string, unknown>, layout: ArmLayout): Record<string, unknown> {
  if (layout.kind === 'plain') return flatten(response, layout.status);
  const leaf = layout.leaves.find((l) => l.kindValue === response.kind);
  if (!leaf)
    throw new ArmPayloadError(
      `ARM response: kind ${JSON.stringify(response.kind)} is none of ${layout.leaves.map((l) => l.kindValue).join(', ')}`,
    );
  return { [leaf.property]: flatten(response, leaf.status) };
}

/** Sets `azureName` to metadata.name when empty (aso-conventions.md), on every oneOf leaf that is set. */
export function defaultAzureName(object: KubeObject, layout: ArmLayout): KubeObject {
  const name = object.metadata?.name;
  if (typeof name !== 'string' || !isObject(object.spec)) return object;
  const spec = { ...object.spec };
  if (layout.kind === 'plain') {
    if (!spec.azureName) spec.azureName = name;
  } else {
    for (const leaf of layout.leaves) {
      const value = spec[leaf.property];
      if (isObject(value) && !value.azureName) spec[leaf.property] = { ...value, azureName: name };
    }
  }
  return { ...object, spec };
}

function nest(
  spec: Record<string, unknown>,
  fields: ArmFields,
  fallbackName: string | undefined,
  objects: Readonly<Record<string, ArmObject>>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = typeof spec.azureName === 'string' && spec.azureName !== '' ? spec.azureName : fallbackName;
  if (name !== undefined) body.name = name;
  const send = (key: string): unknown => armValue(spec[key], fields.values?.[key] ?? 0, objects);
  for (const key of fields.root) if (spec[key] !== undefined) body[key] = send(key);
  const properties: Record<string, unknown> = {};
  for (const key of fields.properties) if (spec[key] !== undefined) properties[key] = send(key);
  if (Object.keys(properties).length > 0) body.properties = properties;
  return body;
}

/** A value as ARM receives it: objects reduced to their type's properties, recursively. */
function armValue(value: unknown, shape: ArmValue, objects: Readonly<Record<string, ArmObject>>): unknown {
  if (shape === 0) return value;
  if ('object' in shape) {
    const type = objects[shape.object];
    if (!isObject(value) || type === undefined) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(type)) {
      if (Object.hasOwn(value, key) && value[key] !== undefined)
        out[key] = armValue(value[key], type[key] as ArmValue, objects);
    }
    return out;
  }
  if ('array' in shape)
    return Array.isArray(value) ? value.map((e) => armValue(e, shape.array, objects)) : value;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setKey(out, key, armValue(value[key], shape.map, objects));
  return out;
}

function flatten(response: Record<string, unknown>, fields: ArmFields): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  for (const key of fields.root) if (response[key] !== undefined) status[key] = response[key];
  const properties = isObject(response.properties) ? response.properties : {};
  for (const key of fields.properties) if (properties[key] !== undefined) status[key] = properties[key];
  return status;
}
