/**
 * Where an ASO kind's spec points at something else, read from its CRD's schema: the operator's generator
 * gives every reference the same shape (a resource reference has `armId`, a secret or config-map reference
 * `name` and `key`, exports live under `operatorSpec`), so walking the schema finds every one of the
 * hundreds of kinds' references, including kinds newer than this project, without a hand-kept list.
 */

/** What a spec property found in a schema points at, and in which direction. */
export type ReferenceRole =
  /** `spec.owner`: the parent the object is created under (by name, or an ARM ID). */
  | 'owner'
  /** Any other resource reference (`armId`, `group`, `kind`, `name`): an ASO object or an ARM ID. */
  | 'resource'
  /** A key of a Kubernetes secret the operator reads (`SecretReference`). */
  | 'secret'
  /** A whole Kubernetes secret the operator reads (`SecretMapReference`, name only). */
  | 'secretMap'
  /** A key of a config map the operator reads (`ConfigMapReference`, the `*FromConfig` properties). */
  | 'configMap'
  /** A secret the operator writes (`operatorSpec.secrets`, `operatorSpec.secretExpressions`). */
  | 'exportSecret'
  /** A config map the operator writes (`operatorSpec.configMaps`, `operatorSpec.configMapExpressions`). */
  | 'exportConfigMap';

/** The owner's type when the schema fixes it (ordinary resources) rather than the object (extensions). */
export interface OwnerType {
  group: string;
  kind: string;
}

/**
 * One reference property of a kind: its path under `spec`, where `[]` stands for every item of an array
 * and `{}` for every value of a map.
 */
export interface ReferencePath {
  path: string[];
  role: ReferenceRole;
  /** For `owner` whose schema names no `group`/`kind` property: the type its description names. */
  ownerType?: OwnerType;
}

/** The parts of an OpenAPI v3 schema the walk reads. */
export interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
}

/** How the operator's generator words the owner's type: "Owner is expected to be a reference to a g/Kind resource". */
const ownerTypeInDescription = /reference to a ([a-z0-9.-]+)\/([A-Za-z0-9]+) resource/;

function propertyNames(schema: SchemaNode): Set<string> {
  return new Set(Object.keys(schema.properties ?? {}).filter((name) => name !== '$propertyBag'));
}

function sameSet(names: Set<string>, wanted: string[]): boolean {
  return names.size === wanted.length && wanted.every((name) => names.has(name));
}

/** The role of an object schema outside `operatorSpec`, or undefined when it is not a reference. */
function referenceRole(schema: SchemaNode, property: string): ReferenceRole | undefined {
  const names = propertyNames(schema);
  if (names.has('armId') && names.has('name')) return 'resource';
  const description = schema.description ?? '';
  if (sameSet(names, ['name', 'key'])) {
    // SecretReference and ConfigMapReference have the same shape; the generator names config-map ones
    // `*FromConfig` and describes them as ConfigMapReference.
    return property.endsWith('FromConfig') || /configmap/i.test(description) ? 'configMap' : 'secret';
  }
  if (sameSet(names, ['name']) && /kubernetes secret/i.test(description)) return 'secretMap';
  return undefined;
}

/** The role of an object schema inside `operatorSpec`: a destination the operator writes, named by its container. */
function exportRole(schema: SchemaNode, container: string): ReferenceRole | undefined {
  const names = propertyNames(schema);
  if (!names.has('name') || !(names.has('key') || names.has('value'))) return undefined;
  if (/secret/i.test(container)) return 'exportSecret';
  if (/configmap/i.test(container)) return 'exportConfigMap';
  return undefined;
}

function walk(
  schema: SchemaNode,
  path: string[],
  property: string,
  container: string | undefined,
  found: ReferencePath[],
): void {
  if (path.length > 0) {
    if (path.length === 1 && property === 'owner') {
      const names = propertyNames(schema);
      const match = names.has('kind') ? null : ownerTypeInDescription.exec(schema.description ?? '');
      found.push({
        path,
        role: 'owner',
        ...(match ? { ownerType: { group: match[1] as string, kind: match[2] as string } } : {}),
      });
      return;
    }
    const role = container === undefined ? referenceRole(schema, property) : exportRole(schema, container);
    if (role) {
      found.push({ path, role });
      return;
    }
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (name === '$propertyBag') continue;
    // Inside operatorSpec the nearest property named for secrets or config maps says what its destinations are.
    const inside =
      container !== undefined
        ? /secret|configmap/i.test(name)
          ? name
          : container
        : path.length === 0 && name === 'operatorSpec'
          ? ''
          : undefined;
    walk(child, [...path, name], name, inside, found);
  }
  if (schema.items) walk(schema.items, [...path, '[]'], property, container, found);
  if (typeof schema.additionalProperties === 'object') {
    walk(schema.additionalProperties, [...path, '{}'], property, container, found);
  }
}

/**
 * Every reference property of a kind's `spec` schema. Within `operatorSpec`, the container a destination
 * sits in (`secrets`, `configMapExpressions`, ...) says whether it is a secret or a config map.
 */
export function referencePathsOf(specSchema: SchemaNode | undefined): ReferencePath[] {
  const found: ReferencePath[] = [];
  if (specSchema) walk(specSchema, [], '', undefined, found);
  return found;
}

/** A path as people read it: `operatorSpec.secrets.adminPassword`, `subnets[].reference`. */
export function pathText(path: readonly string[]): string {
  return path.reduce((text, segment) => {
    if (segment === '[]') return `${text}[]`;
    if (segment === '{}') return `${text}{}`;
    return text === '' ? segment : `${text}.${segment}`;
  }, '');
}
