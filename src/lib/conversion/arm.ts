import { isObject } from './checks.ts';
import { ConversionError } from './errors.ts';
import type { KubeObject } from './resource.ts';

/** Where each spec/status property of one object sits in ARM: at the root, or inside `properties`. */
export interface ArmFields {
  readonly root: readonly string[];
  readonly properties: readonly string[];
}

/** The ARM layout of a resource version; a oneOf root (seed 004) has one layout per leaf. */
export type ArmLayout =
  | { readonly kind: 'plain'; readonly spec: ArmFields; readonly status: ArmFields }
  | {
      readonly kind: 'oneOf';
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
 * properties at the root, the rest re-nested under `properties`; `azureName` and `owner` are dropped.
 */
export function armBody(object: KubeObject, layout: ArmLayout): Record<string, unknown> {
  const spec = isObject(object.spec) ? object.spec : {};
  const fallbackName = typeof object.metadata?.name === 'string' ? object.metadata.name : undefined;
  if (layout.kind === 'plain') return nest(spec, layout.spec, fallbackName);
  const set = layout.leaves.filter((leaf) => spec[leaf.property] !== undefined);
  if (set.length !== 1) {
    throw new ArmPayloadError(
      `spec: exactly one of ${layout.leaves.map((l) => l.property).join(', ')} must be set (found ${set.length})`,
    );
  }
  const leaf = set[0]!;
  const value = spec[leaf.property];
  return nest(isObject(value) ? value : {}, leaf.spec, fallbackName);
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
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = typeof spec.azureName === 'string' && spec.azureName !== '' ? spec.azureName : fallbackName;
  if (name !== undefined) body.name = name;
  for (const key of fields.root) if (spec[key] !== undefined) body[key] = spec[key];
  const properties: Record<string, unknown> = {};
  for (const key of fields.properties) if (spec[key] !== undefined) properties[key] = spec[key];
  if (Object.keys(properties).length > 0) body.properties = properties;
  return body;
}

function flatten(response: Record<string, unknown>, fields: ArmFields): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  for (const key of fields.root) if (response[key] !== undefined) status[key] = response[key];
  const properties = isObject(response.properties) ? response.properties : {};
  for (const key of fields.properties) if (properties[key] !== undefined) status[key] = properties[key];
  return status;
}
