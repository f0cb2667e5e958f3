/** The parts of an OpenAPI v3 schema (as a CRD carries it) that say which fields may appear. */
export interface StructuralSchema {
  type?: string;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: boolean | StructuralSchema;
  items?: StructuralSchema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** Keys of an object that the API server never checks against the version's schema. */
const objectMeta = new Set(['apiVersion', 'kind', 'metadata']);

/** A path into an object: property names and array indexes. */
export type FieldPath = ReadonlyArray<string | number>;

/**
 * The paths of every field in `object` that the schema has no place for (`spec.tier`,
 * `spec.rules[2].priority`): what the API server would prune or reject when the object is applied at that
 * version. A rename between versions is only safe when this is empty.
 */
export function fieldsNotInSchema(object: Record<string, unknown>, schema: StructuralSchema): FieldPath[] {
  const missing: FieldPath[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (objectMeta.has(key)) continue;
    const property = schema.properties?.[key];
    if (property) walk(value, property, [key], missing);
    else if (!schema['x-kubernetes-preserve-unknown-fields']) missing.push([key]);
  }
  return missing;
}

/** `spec.rules[2].priority`: a path as the user reads it in messages. */
export function formatPath(path: FieldPath): string {
  return path
    .map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`))
    .join('');
}

function walk(value: unknown, schema: StructuralSchema, path: FieldPath, missing: FieldPath[]): void {
  if (schema['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const [index, item] of value.entries()) walk(item, items, [...path, index], missing);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const property = schema.properties?.[key];
    const additional = schema.additionalProperties;
    const where = [...path, key];
    if (property) walk(child, property, where, missing);
    else if (typeof additional === 'object') walk(child, additional, where, missing);
    else if (additional !== true) missing.push(where);
  }
}
