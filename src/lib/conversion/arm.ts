import { isObject, setKey } from './checks.ts';
import { ConversionError } from './errors.ts';
import type { KubeObject } from './resource.ts';

/**
 * How a property's value goes into an ARM body: `0` as is (a primitive or enum), an object of a named type
 * of the version (only that type's properties are sent), or an array or map of such values. The operator's
 * type transformations (issue 8, item 3) add five more, each naming the ARM property the value goes to: a
 * resource `reference` sent as its ARM ID; a list of resource `references` sent as the list of their ARM
 * IDs; a `secret` reference never sent (the operator reads the secret, kubectl-aso never does); a config map
 * reference (`fromConfig`) sent as the value the caller read; a list of user-assigned `identities` sent as
 * ARM's map keyed by their ARM IDs. A `oneOf` is an object of a discriminated union (a CDN rule's action):
 * the operator sends in its place the first of its options that is set, in the order its type lists them.
 */
export type ArmValue =
  | 0
  | { readonly object: string }
  | { readonly oneOf: string }
  | { readonly array: ArmValue }
  | { readonly map: ArmValue }
  | { readonly reference: string }
  | { readonly references: string }
  | { readonly secret: string }
  | { readonly fromConfig: string }
  | { readonly identities: string }
  | ArmPlaced;

/**
 * A property the operator's ConvertToARM sends somewhere other than under its own name in the object that
 * holds it: `at` is its ARM path relative to that object (`properties.serviceName` for a nested object's
 * own `properties`, `placement` for a resource property ARM keeps at the root, `resourceID` for another
 * spelling); a transformed value keeps the ARM name its transformation gives and goes into `at`'s parent.
 */
export interface ArmPlaced {
  readonly at: string;
  readonly value: Exclude<ArmValue, ArmPlaced>;
}

/** How a property's value is sent, wherever it is placed. */
export function unplaced(shape: ArmValue): Exclude<ArmValue, ArmPlaced> {
  return shape !== 0 && 'at' in shape ? shape.value : shape;
}

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

/**
 * What of a live child element the operator's copy keeps (see {@link LiveChildren}): its JSON names, each
 * with what survives below it (an object, or each element of a list of objects), or `null` for a value kept
 * whole (a string, number, enum, a list or map of them, raw JSON).
 */
export interface LiveElement {
  readonly [json: string]: LiveElement | null;
}

/**
 * A collection of child resources ARM also lists inside the parent (a virtual network's subnets), which a
 * PUT of the parent without them would delete: before its PUT, the operator GETs the resource and puts
 * Azure's children into the body at `path`, in place of the body's (`replace`) or after the body's, those
 * whose `name` none of them has (`byName`), each element only with what its Go type holds (`element`).
 * `parentsOptional`: the body goes as it is when Azure's resource lacks an object on the way to the
 * collection; otherwise a missing collection fails the PUT. Read from the operator's Go code by the import
 * (import/live-children.ts).
 */
export interface LiveChildren {
  readonly path: string;
  readonly merge: 'replace' | 'byName';
  readonly parentsOptional?: true;
  readonly element: LiveElement;
}

/**
 * The ARM layout of a resource version; a oneOf root (seed 004) has one layout per leaf, held by the spec
 * under `property` and by the status under `statusProperty` (the operator names them apart).
 * `nullWhenUnset` lists the body paths (list elements and map values as `[]`) of the lists and maps whose
 * Go field lacks `omitempty`: the operator's encoder writes them as `null` when unset, wherever the object
 * holding them is sent (a storage account's `properties.networkAcls.ipRules`); `emptyWhenUnset` those it
 * sends as an empty list or map instead (AKS's node labels: "serialize all collections explicitly");
 * `liveChildren` the collection the operator fills from Azure before its PUT.
 */
export type ArmLayout =
  | {
      readonly kind: 'plain';
      readonly spec: ArmFields;
      readonly status: ArmFields;
      readonly objects?: Readonly<Record<string, ArmObject>>;
      /** The one name ARM allows (a blob service's `default`): the spec has no azureName to take it from. */
      readonly fixedName?: string;
      readonly nullWhenUnset?: readonly string[];
      readonly emptyWhenUnset?: Readonly<Record<string, 'list' | 'map'>>;
      readonly liveChildren?: LiveChildren;
    }
  | {
      readonly kind: 'oneOf';
      readonly objects?: Readonly<Record<string, ArmObject>>;
      readonly leaves: readonly {
        readonly property: string;
        readonly statusProperty: string;
        readonly kindValue: string;
        readonly spec: ArmFields;
        readonly status: ArmFields;
      }[];
      readonly nullWhenUnset?: readonly string[];
      readonly emptyWhenUnset?: Readonly<Record<string, 'list' | 'map'>>;
      readonly liveChildren?: LiveChildren;
    };

/** The spec cannot be turned into an ARM body (for a oneOf root: not exactly one option set). */
export class ArmPayloadError extends ConversionError {}

/**
 * A discriminated union with none of its options set (a CDN rule's action that is `{}`): the operator's
 * MarshalJSON of it returns no bytes, so writing the body fails and ASO never sends the object; kubectl-aso
 * says where instead of guessing a body.
 */
export class UnsendableUnionError extends ArmPayloadError {
  readonly path: string;
  constructor(path: string, options: readonly string[]) {
    super(
      `${path}: none of ${options.join(', ')} is set, and ASO cannot send it to Azure without one`,
      'set exactly one of them',
    );
    this.path = path;
  }
}

/**
 * A reference (to a Kubernetes object, or a config map key) the caller could not resolve: the ARM body would
 * need a value kubectl-aso does not have, so it says so instead of guessing one.
 */
export class UnresolvedReferenceError extends ArmPayloadError {
  readonly object: string;
  readonly paths: readonly string[];
  constructor(object: string, paths: readonly string[]) {
    super(
      `${object}: cannot build the ARM body: ${paths.join(', ')} ${paths.length === 1 ? 'names' : 'name'} a value that was not resolved`,
      'a reference by name needs the object it names (with its ARM ID), a config map reference the config map',
    );
    this.object = object;
    this.paths = paths;
  }
}

/** A Kubernetes object a reference names, in the namespace of the object holding the reference. */
export interface NamedReference {
  readonly group?: string | undefined;
  readonly kind?: string | undefined;
  readonly name: string;
}

/** A key of a config map, in the namespace of the object holding the reference. */
export interface ConfigMapKey {
  readonly name: string;
  readonly key: string;
}

/**
 * What only the caller can look up, through the cluster: the ARM ID of an object a reference names by
 * name, and the value of a config map key. Each returns undefined when it cannot; `path` is the spec path
 * of the reference, for the caller's messages.
 */
export interface ArmResolvers {
  readonly armIdOf?: (reference: NamedReference, path: string) => string | undefined;
  readonly configMapValue?: (reference: ConfigMapKey, path: string) => string | undefined;
}

/**
 * An ARM body and what it leaves out: references not resolved, and secrets never sent (spec paths only), with
 * where in the body each secret would go (`secretsAt`, ARM paths such as `properties.administratorLoginPassword`
 * or `properties.users[0].password`): the operator puts the secret's value there, kubectl-aso only says it is set.
 */
export interface ArmBodyParts {
  readonly body: Record<string, unknown>;
  readonly unresolved: readonly string[];
  readonly withheld: readonly string[];
  readonly secretsAt: readonly string[];
  /**
   * ARM paths of the maps the body sends (`properties.metadata`, a free-form JSON object): a PUT sets such a
   * value whole, so an entry Azure holds and the body lacks is removed, where a property of a typed object
   * the body leaves out is kept.
   */
  readonly wholeAt: readonly string[];
}

/**
 * The ARM PUT body for an object's spec: `name` from `azureName` (defaulted to metadata.name), root
 * properties at the root, the rest re-nested under `properties`; `azureName` and `owner` are dropped. Only
 * properties of this version's types are sent, at every depth: a value another version set (a plain key
 * or one in a `$propertyBag`) is not part of this API version, and ARM would reject or misread it.
 */
export function armBody(
  object: KubeObject,
  layout: ArmLayout,
  resolvers: ArmResolvers = {},
): Record<string, unknown> {
  const parts = armBodyParts(object, layout, resolvers);
  if (parts.unresolved.length > 0) throw new UnresolvedReferenceError(labelOf(object), parts.unresolved);
  return parts.body;
}

/**
 * {@link armBody} for a caller that reports what the body lacks instead of failing (adopt-check's what-if):
 * the body without the unresolved references, and their spec paths.
 */
export function armBodyParts(
  object: KubeObject,
  layout: ArmLayout,
  resolvers: ArmResolvers = {},
): ArmBodyParts {
  const spec = isObject(object.spec) ? object.spec : {};
  const fallbackName = typeof object.metadata?.name === 'string' ? object.metadata.name : undefined;
  const context: SendContext = {
    objects: layout.objects ?? {},
    resolvers,
    unresolved: [],
    withheld: [],
    secretsAt: [],
    wholeAt: [],
    verbatimAt: [],
  };
  const done = (body: Record<string, unknown>): ArmBodyParts => ({
    body: goEncoded(body, layout, context),
    unresolved: context.unresolved,
    withheld: context.withheld,
    secretsAt: context.secretsAt,
    wholeAt: context.wholeAt,
  });
  if (layout.kind === 'plain') {
    if (layout.fixedName !== undefined)
      return done(nest({ ...spec, azureName: layout.fixedName }, layout.spec, fallbackName, context, 'spec'));
    const fromConfig = nameFromConfig(spec, context);
    return done(
      nest(
        fromConfig === undefined ? spec : { ...spec, azureName: fromConfig.name },
        layout.spec,
        fromConfig === undefined ? fallbackName : undefined,
        context,
        'spec',
      ),
    );
  }
  const set = layout.leaves.filter((leaf) => spec[leaf.property] !== undefined);
  if (set.length !== 1) {
    throw new ArmPayloadError(
      `spec: exactly one of ${layout.leaves.map((l) => l.property).join(', ')} must be set (found ${set.length})`,
    );
  }
  const leaf = set[0]!;
  const value = spec[leaf.property];
  const body = nest(isObject(value) ? value : {}, leaf.spec, undefined, context, `spec.${leaf.property}`);
  // The name is the root's, as for a plain resource: ARM's body has it beside the leaf's properties.
  const name = typeof spec.azureName === 'string' && spec.azureName !== '' ? spec.azureName : fallbackName;
  return done(name === undefined ? body : { name, ...body });
}

/**
 * The ARM name an `azureNameFromConfig` gives (the operator's administrators: the name is read from a config
 * map when the spec has no `azureName`, and then never defaults to metadata.name): `undefined` when the spec
 * does not use it, else the name read, or none (and the path reported unresolved) without a resolver.
 */
function nameFromConfig(
  spec: Record<string, unknown>,
  context: SendContext,
): { name: string | undefined } | undefined {
  if (typeof spec.azureName === 'string' && spec.azureName !== '') return undefined;
  if (spec.azureNameFromConfig === undefined) return undefined;
  return { name: configMapValueOf(spec.azureNameFromConfig, context, 'spec.azureNameFromConfig') };
}

/** `Kind namespace/name`, as messages name an object. */
function labelOf(object: KubeObject): string {
  const name = object.metadata?.name ?? '(unnamed)';
  const namespace = object.metadata?.namespace;
  return `${object.kind ?? 'object'} ${namespace ? `${namespace}/` : ''}${String(name)}`;
}

/** The status an ARM GET response describes: `properties` flattened back, identity fields kept. */
export function statusFromArm(response: Record<string, unknown>, layout: ArmLayout): Record<string, unknown> {
  if (layout.kind === 'plain') return flatten(response, layout.status);
  const leaf = layout.leaves.find((l) => l.kindValue === response.kind);
  if (!leaf)
    throw new ArmPayloadError(
      `ARM response: kind ${JSON.stringify(response.kind)} is none of ${layout.leaves.map((l) => l.kindValue).join(', ')}`,
    );
  const status: Record<string, unknown> = { [leaf.statusProperty]: flatten(response, leaf.status) };
  if (response.name !== undefined) status.name = response.name;
  return status;
}

/** Sets `azureName` to metadata.name when empty (aso-conventions.md); a oneOf root has it too. */
export function defaultAzureName(object: KubeObject, layout: ArmLayout): KubeObject {
  const name = object.metadata?.name;
  if (typeof name !== 'string' || !isObject(object.spec)) return object;
  const spec = { ...object.spec };
  // A resource with a fixed name has no azureName: the name is the layout's, never metadata.name.
  if (layout.kind === 'plain' && layout.fixedName !== undefined) return object;
  // As the operator's defaulting webhook: a name read from a config map is not replaced by metadata.name.
  if (!spec.azureName && spec.azureNameFromConfig === undefined) spec.azureName = name;
  return { ...object, spec };
}

interface SendContext {
  readonly objects: Readonly<Record<string, ArmObject>>;
  readonly resolvers: ArmResolvers;
  readonly unresolved: string[];
  readonly withheld: string[];
  readonly secretsAt: string[];
  readonly wholeAt: string[];
  /** ARM paths of free-form values (shape 0 objects) that go into the body as the spec holds them. */
  readonly verbatimAt: string[];
}

function nest(
  spec: Record<string, unknown>,
  fields: ArmFields,
  fallbackName: string | undefined,
  context: SendContext,
  path: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = typeof spec.azureName === 'string' && spec.azureName !== '' ? spec.azureName : fallbackName;
  if (name !== undefined) body.name = name;
  for (const key of transformedLast(fields.root, fields.values))
    if (spec[key] !== undefined)
      send(body, key, spec[key], fields.values?.[key] ?? 0, context, `${path}.${key}`, '');
  const properties: Record<string, unknown> = {};
  const secretsBefore = context.secretsAt.length;
  for (const key of transformedLast(fields.properties, fields.values))
    if (spec[key] !== undefined)
      send(properties, key, spec[key], fields.values?.[key] ?? 0, context, `${path}.${key}`, 'properties.');
  for (const key of transformedLast([...fields.root, ...fields.properties], fields.values)) {
    const shape = fields.values?.[key] ?? 0;
    if (spec[key] === undefined || shape === 0 || !('at' in shape)) continue;
    // Relative to the resource's body, whose `properties` is being built apart.
    const into = (container: string) =>
      container === ''
        ? body
        : container === 'properties' || container.startsWith('properties.')
          ? objectAt(properties, container.slice('properties'.length + 1))
          : objectAt(body, container);
    sendPlaced(into, spec[key], shape, context, `${path}.${key}`, '');
  }
  // The operator makes `properties` for a secret alone too, and puts the secret's value in it.
  const secretInside = context.secretsAt.slice(secretsBefore).some((at) => at.startsWith('properties.'));
  if (Object.keys(properties).length > 0 || (secretInside && !Object.hasOwn(body, 'properties')))
    body.properties = properties;
  return body;
}

/**
 * The body as the operator's Go encoder writes it: a list or map field without `omitempty` is `null` when
 * unset and a list of it `null` when empty (ConvertToARM appends to a nil slice), in every object of the
 * body that holds it; an empty list, an empty map (at `wholeAt`, ARM paths) and a `null` of any other field
 * are left out; an empty list inside a list or map is `null`. Free-form JSON (`verbatimAt`) is sent as it
 * is, even empty (the operator's pointer to it is set). The layout's `emptyWhenUnset` collections are `[]`
 * or `{}` when unset or empty, never `null`; such a map is added to `wholeAt`, as the PUT clears it.
 */
function goEncoded(
  body: Record<string, unknown>,
  layout: ArmLayout,
  context: Pick<SendContext, 'wholeAt' | 'verbatimAt'>,
): Record<string, unknown> {
  const explicit = layout.emptyWhenUnset ?? {};
  const nullWhenUnset = [...(layout.nullWhenUnset ?? []), ...Object.keys(explicit)];
  const nullable = new Set(nullWhenUnset);
  const keysUnder = new Map<string, string[]>();
  for (const path of nullWhenUnset) {
    const dot = path.lastIndexOf('.');
    const parent = dot < 0 ? '' : path.slice(0, dot);
    keysUnder.set(parent, [...(keysUnder.get(parent) ?? []), path.slice(dot + 1)]);
  }
  const mapAt = new Set(context.wholeAt);
  const verbatimAt = new Set(context.verbatimAt);
  // A typed list: free-form JSON keeps its empty lists as they are.
  const isEmptyList = (value: unknown, at: string) =>
    Array.isArray(value) && value.length === 0 && !verbatimAt.has(at);
  const encode = (value: unknown, pattern: string, at: string): unknown => {
    if (verbatimAt.has(at)) return value;
    if (Array.isArray(value))
      return value.map((element, i) => {
        const encoded = encode(element, `${pattern}[]`, `${at}[${i}]`);
        return isEmptyList(encoded, `${at}[${i}]`) ? null : encoded;
      });
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    if (mapAt.has(at)) {
      for (const [key, inner] of Object.entries(value)) {
        const innerAt = `${at}[${JSON.stringify(key)}]`;
        const encoded = encode(inner, `${pattern}[]`, innerAt);
        setKey(out, key, isEmptyList(encoded, innerAt) ? null : encoded);
      }
      return out;
    }
    for (const [key, inner] of Object.entries(value)) {
      const innerPattern = pattern === '' ? key : `${pattern}.${key}`;
      const innerAt = at === '' ? key : `${at}.${key}`;
      const encoded = encode(inner, innerPattern, innerAt);
      const empty =
        encoded === null ||
        isEmptyList(encoded, innerAt) ||
        (isObject(encoded) &&
          Object.keys(encoded).length === 0 &&
          mapAt.has(innerAt) &&
          !verbatimAt.has(innerAt));
      if (!empty) setKey(out, key, encoded);
      else if (nullable.has(innerPattern)) setKey(out, key, isEmptyList(encoded, innerAt) ? null : encoded);
    }
    for (const key of keysUnder.get(pattern) ?? []) {
      const kind = explicit[pattern === '' ? key : `${pattern}.${key}`];
      if (kind !== undefined && (out[key] === undefined || out[key] === null)) {
        out[key] = kind === 'list' ? [] : {};
        // An empty map the operator sends takes away every entry Azure holds.
        if (kind === 'map') context.wholeAt.push(at === '' ? key : `${at}.${key}`);
      } else if (!Object.hasOwn(out, key)) out[key] = null;
    }
    return out;
  };
  return encode(body, '', '') as Record<string, unknown>;
}

/** The object at a dotted path below `root` (`''` is `root`), created where missing. */
function objectAt(root: Record<string, unknown>, path: string): Record<string, unknown> {
  let current = root;
  for (const key of path === '' ? [] : path.split('.')) {
    const next = current[key];
    if (isObject(next)) current = next;
    else {
      const created: Record<string, unknown> = {};
      setKey(current, key, created);
      current = created;
    }
  }
  return current;
}

/** A transformed value's shape with the ARM name its placement gives (`hostGroupID`, not `hostGroupId`). */
function namedAs(shape: Exclude<ArmValue, ArmPlaced>, name: string): Exclude<ArmValue, ArmPlaced> {
  if (shape === 0 || 'object' in shape || 'oneOf' in shape || 'array' in shape || 'map' in shape)
    return shape;
  if ('reference' in shape) return { reference: name };
  if ('references' in shape) return { references: name };
  if ('secret' in shape) return { secret: name };
  if ('fromConfig' in shape) return { fromConfig: name };
  return { identities: name };
}

/** Sends a placed property into the object its path names, found (or made) by `into`. */
function sendPlaced(
  into: (container: string) => Record<string, unknown>,
  value: unknown,
  shape: ArmPlaced,
  context: SendContext,
  path: string,
  armAt: string,
): void {
  const dot = shape.at.lastIndexOf('.');
  const container = dot < 0 ? '' : shape.at.slice(0, dot);
  const name = shape.at.slice(dot + 1);
  send(
    into(container),
    name,
    value,
    namedAs(shape.value, name),
    context,
    path,
    container === '' ? armAt : `${armAt}${container}.`,
  );
}

/**
 * `keys` in send order: plain values first, then references, config map values and secrets, which the
 * operator's ConvertToARM assigns after the plain property of the same ARM name and so win over it (an
 * object that sets both `tenantId` and `tenantIdFromConfig` sends the config map's value).
 */
function transformedLast(keys: readonly string[], values: ArmObject | undefined): string[] {
  const transformed = (key: string) => {
    const placed = values?.[key] ?? 0;
    const shape = placed !== 0 && 'at' in placed ? placed.value : placed;
    return (
      shape !== 0 &&
      ('reference' in shape || 'references' in shape || 'fromConfig' in shape || 'secret' in shape)
    );
  };
  return [...keys.filter((k) => !transformed(k)), ...keys.filter(transformed)];
}

/**
 * Puts one property into an ARM object, under its ARM name (a transformed property's differs); `armAt` is
 * the ARM path of `out` (empty at the root, else ending in a dot).
 */
function send(
  out: Record<string, unknown>,
  key: string,
  value: unknown,
  shape: ArmValue,
  context: SendContext,
  path: string,
  armAt: string,
): void {
  // Placed properties are sent by the caller that knows the object's root (nest, armValue).
  if (shape !== 0 && 'at' in shape) return;
  if (shape === 0 || 'object' in shape || 'oneOf' in shape || 'array' in shape || 'map' in shape) {
    setKey(out, key, armValue(value, shape, context, path, `${armAt}${key}`));
    return;
  }
  if ('secret' in shape) {
    // The operator sends the secret's value there, over a plain value of the same name (`serviceUri` beside
    // `serviceUriFromSecret`): what the body has there is not what ARM gets.
    if (Object.hasOwn(out, shape.secret)) delete out[shape.secret];
    context.withheld.push(path);
    context.secretsAt.push(`${armAt}${shape.secret}`);
    return;
  }
  if ('references' in shape) {
    if (!Array.isArray(value)) {
      context.unresolved.push(path);
      return;
    }
    // Sent only whole: a list missing one ID would tell ARM to drop that resource from it.
    const ids = value.map((entry, i) => armIdOf(entry, context, `${path}[${i}]`));
    if (ids.every((id) => id !== undefined)) setKey(out, shape.references, ids);
    return;
  }
  if ('reference' in shape) {
    const id = armIdOf(value, context, path);
    if (id !== undefined) setKey(out, shape.reference, id);
    return;
  }
  if ('fromConfig' in shape) {
    const read = configMapValueOf(value, context, path);
    if (read !== undefined) setKey(out, shape.fromConfig, read);
    return;
  }
  if (!Array.isArray(value)) {
    context.unresolved.push(path);
    return;
  }
  const identities: Record<string, unknown> = {};
  context.wholeAt.push(`${armAt}${shape.identities}`);
  value.forEach((entry, i) => {
    const id = armIdOf(isObject(entry) ? entry.reference : undefined, context, `${path}[${i}].reference`);
    if (id !== undefined) setKey(identities, id, {});
  });
  setKey(out, shape.identities, identities);
}

/**
 * The ARM ID a resource reference stands for: its `armId`, else what the caller finds for the object it
 * names. A well-known reference's `wellKnownName` (a private endpoint's service alias) is sent as it is,
 * over anything else it holds, as the operator's ConvertToARM sends it.
 */
function armIdOf(value: unknown, context: SendContext, path: string): string | undefined {
  if (isObject(value)) {
    if (typeof value.wellKnownName === 'string' && value.wellKnownName !== '') return value.wellKnownName;
    if (typeof value.armId === 'string' && value.armId !== '') return value.armId;
    if (typeof value.name === 'string' && value.name !== '') {
      const reference: NamedReference = {
        name: value.name,
        group: typeof value.group === 'string' ? value.group : undefined,
        kind: typeof value.kind === 'string' ? value.kind : undefined,
      };
      const id = context.resolvers.armIdOf?.(reference, path);
      if (id !== undefined) return id;
    }
  }
  context.unresolved.push(path);
  return undefined;
}

function configMapValueOf(value: unknown, context: SendContext, path: string): string | undefined {
  if (isObject(value) && typeof value.name === 'string' && typeof value.key === 'string') {
    const read = context.resolvers.configMapValue?.({ name: value.name, key: value.key }, path);
    if (read !== undefined) return read;
  }
  context.unresolved.push(path);
  return undefined;
}

/** A value as ARM receives it (at ARM path `armPath`): objects reduced to their type's properties, recursively. */
function armValue(
  value: unknown,
  shape: ArmValue,
  context: SendContext,
  path: string,
  armPath: string,
): unknown {
  if (shape === 0) {
    // Free-form JSON (an object or list where the type has a plain value) is sent as the spec holds it,
    // and an object of it replaces what Azure holds whole.
    if (isObject(value) || Array.isArray(value)) context.verbatimAt.push(armPath);
    if (isObject(value)) context.wholeAt.push(armPath);
    return value;
  }
  if ('oneOf' in shape) {
    const options = context.objects[shape.oneOf];
    if (!isObject(value) || options === undefined) return value;
    const chosen = Object.keys(options).find((key) => value[key] !== undefined && value[key] !== null);
    // The operator's MarshalJSON has nothing to send in the union's place and fails the whole body.
    if (chosen === undefined) throw new UnsendableUnionError(path, Object.keys(options));
    const option = unplaced(options[chosen] as ArmValue);
    return armValue(value[chosen], option, context, `${path}.${chosen}`, armPath);
  }
  if ('object' in shape) {
    const type = context.objects[shape.object];
    if (!isObject(value) || type === undefined) return value;
    const out: Record<string, unknown> = {};
    for (const key of transformedLast(Object.keys(type), type)) {
      if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
      const shape = type[key] as ArmValue;
      if (shape !== 0 && 'at' in shape)
        sendPlaced(
          (container) => objectAt(out, container),
          value[key],
          shape,
          context,
          `${path}.${key}`,
          `${armPath}.`,
        );
      else send(out, key, value[key], shape, context, `${path}.${key}`, `${armPath}.`);
    }
    return out;
  }
  if ('array' in shape)
    return Array.isArray(value)
      ? value.map((e, i) => armValue(e, shape.array, context, `${path}[${i}]`, `${armPath}[${i}]`))
      : value;
  if ('map' in shape) {
    if (!isObject(value)) return value;
    context.wholeAt.push(armPath);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      setKey(
        out,
        key,
        armValue(
          value[key],
          shape.map,
          context,
          `${path}[${JSON.stringify(key)}]`,
          `${armPath}[${JSON.stringify(key)}]`,
        ),
      );
    return out;
  }
  // A transformed value is only ever a property; inside an array or map it has no ARM name.
  return value;
}

/** The resource's own names, which ARM keeps at the root beside `properties`. */
const resourceOwnNames = new Set(['id', 'name', 'type']);

/**
 * The operator's status name for a property of ARM's `properties`: one named like the resource's own `id`,
 * `name` or `type` is flattened as `properties_<name>` (an AKS agent pool's pool type beside its resource
 * type); any other keeps its name.
 */
export function flattenedStatusName(armName: string): string {
  return resourceOwnNames.has(armName) ? `properties_${armName}` : armName;
}

/** The inverse of {@link flattenedStatusName}: the name a flattened status property has in ARM's `properties`. */
export function armNameInProperties(statusName: string): string {
  const match = /^properties_(.*)$/.exec(statusName);
  return match && resourceOwnNames.has(match[1] as string) ? (match[1] as string) : statusName;
}

function flatten(response: Record<string, unknown>, fields: ArmFields): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  for (const key of fields.root) if (response[key] !== undefined) status[key] = response[key];
  const properties = isObject(response.properties) ? response.properties : {};
  for (const key of fields.properties) {
    const value = properties[armNameInProperties(key)];
    if (value !== undefined) status[key] = value;
  }
  return status;
}
