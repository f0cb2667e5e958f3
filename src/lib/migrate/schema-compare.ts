/** Keys of a schema whose value is a map of property name to schema. */
const schemaMaps = new Set(['properties', 'patternProperties', 'definitions']);
/** Keys of a schema whose value is one schema (or, for additionalProperties, a boolean). */
const schemaValues = new Set(['items', 'additionalProperties', 'not']);
/** Keys of a schema whose value is a list of schemas. */
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a path goes one property down, for messages (`spec.network`). */
function below(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/**
 * The first place where the cluster's schema of a version differs from the generated one, in words, or
 * undefined when they are equal. Descriptions are left aside (an operator release rewords them without
 * changing a shape); a property that is named `description` is a property, and is compared.
 */
export function schemaDifference(cluster: unknown, generated: unknown, path = ''): string | undefined {
  if (!isRecord(cluster) || !isRecord(generated)) {
    return sameJson(cluster, generated) ? undefined : `${path || 'the root'}: the schema is not an object`;
  }
  const keys = new Set([...Object.keys(cluster), ...Object.keys(generated)]);
  keys.delete('description');
  for (const key of [...keys].sort()) {
    const ours = generated[key];
    const theirs = cluster[key];
    const where = path || 'the root';
    if (theirs === undefined)
      return `${where}: the cluster's schema has no ${key} (generated: ${brief(ours)})`;
    if (ours === undefined)
      return `${where}: the cluster's schema has ${key} ${brief(theirs)}, the generated one none`;
    let found: string | undefined;
    if (schemaMaps.has(key) && isRecord(theirs) && isRecord(ours)) {
      found = mapDifference(theirs, ours, path);
    } else if (schemaValues.has(key) && isRecord(theirs) && isRecord(ours)) {
      found = schemaDifference(theirs, ours, below(path, key === 'items' ? '[]' : `(${key})`));
    } else if (schemaLists.has(key) && Array.isArray(theirs) && Array.isArray(ours)) {
      found =
        theirs.length !== ours.length
          ? `${where}: ${key} has ${theirs.length} schemas in the cluster, ${ours.length} generated`
          : theirs
              .map((schema, index) =>
                schemaDifference(schema, ours[index], below(path, `(${key}[${index}])`)),
              )
              .find((difference) => difference !== undefined);
    } else if (!sameJson(theirs, ours)) {
      found = `${where}: ${key} is ${brief(theirs)} in the cluster, ${brief(ours)} generated`;
    }
    if (found) return found;
  }
  return undefined;
}

function mapDifference(
  cluster: Record<string, unknown>,
  generated: Record<string, unknown>,
  path: string,
): string | undefined {
  for (const name of Object.keys(generated).sort()) {
    if (!(name in cluster)) return `${below(path, name)}: missing from the cluster's schema`;
  }
  for (const name of Object.keys(cluster).sort()) {
    if (!(name in generated))
      return `${below(path, name)}: in the cluster's schema, not in the generated one`;
    const found = schemaDifference(cluster[name], generated[name], below(path, name));
    if (found) return found;
  }
  return undefined;
}

/** Deep equality of JSON values, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
