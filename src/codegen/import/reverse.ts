import { armNameInProperties } from '../../lib/conversion/arm.ts';
import { type Bounds, validationsOf } from '../model/types.ts';
import type { CrdNode } from './real-crds.ts';

/** A property of the ARM resource as the import rebuilds it: spec and status merged into one tree. */
export interface Field extends Bounds {
  /** `json`: any JSON value, a CRD's `x-kubernetes-preserve-unknown-fields` without a type. */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'object' | 'array' | 'map';
  readonly description?: string;
  readonly enum?: readonly (string | number)[];
  readonly pattern?: string;
  readonly format?: string;
  /** Only the status has it: ARM returns it, never takes it. */
  readonly readOnly: boolean;
  /** Only the spec has it: ARM takes it, never returns it (a secret, say). */
  readonly writeOnly: boolean;
  /** Object fields, in name order. */
  readonly properties?: ReadonlyMap<string, Field>;
  /** Names of the object's fields the spec requires. */
  readonly required?: readonly string[];
  /** The element of an array, the value of a map. */
  readonly element?: Field;
  /**
   * A `number` the operator's spec types as an integer (API Management's diagnostic sampling percentage):
   * ARM's one definition has a number, the operator's config makes the spec's an `int`.
   */
  readonly specInteger?: boolean;
  /**
   * The spec has it, at this path, whatever its parent's flags say: a status-only enum matters only for a
   * field the spec can set (the VM's instance-view statuses are status-only under a status-only parent).
   */
  readonly inSpec: boolean;
  /** An object whose status node in the CRD has required fields or enums: the operator validates it. */
  readonly validatedStatus?: boolean;
}

/** One of the operator's transformations undone, so the config can be checked to redo it. */
export interface Reversal {
  readonly transformation:
    | 'armReferences'
    | 'secrets'
    | 'secretMaps'
    | 'fromConfig'
    | 'userAssignedIdentities';
  /** Path of the object holding the property, in the merged tree (`''` for the resource itself). */
  readonly owner: string;
  /** The ARM property name (`roleDefinitionId`, `administratorLoginPassword`, ...). */
  readonly property: string;
  /** An ARM reference that also takes a well-known name. */
  readonly wellKnown?: boolean;
  /**
   * The operator's `arm+compat` reference: the spec keeps the ARM ID string beside the reference (Insights'
   * metric alert actions have `actionGroupId` and `actionGroupReference`).
   */
  readonly compat?: boolean;
}

/** A real CRD's shape the import has no ARM counterpart for, naming where. */
export class UnsupportedCrdShape extends Error {
  readonly file: string;
  readonly path: string;

  constructor(file: string, path: string, reason: string) {
    super(`${file}: ${path}: ${reason}`);
    this.name = 'UnsupportedCrdShape';
    this.file = file;
    this.path = path;
  }
}

/** What the operator adds to every spec, and the generator adds back itself. */
const operatorSpecRoot = new Set(['azureName', 'owner', 'operatorSpec']);
/** What the operator adds to every status, and the generator adds back itself. */
const operatorStatusRoot = new Set(['conditions', 'id', 'name', 'type']);

/**
 * Turns a real CRD's spec and status back into the ARM resource they were generated from, undoing what
 * the operator's generator did so that kubectl-aso's generator can redo it from its config: references
 * become ARM IDs again, secret references plain strings, `*FromConfig` and the operator's own fields go,
 * lists of identity references become ARM's map. Each undone transformation is reported in `reversals`.
 */
export function reverseCrd(
  file: string,
  spec: CrdNode,
  status: CrdNode,
): { fields: Field; reversals: Reversal[] } {
  const reversals: Reversal[] = [];
  const specSide = specFields(file, spec, status, '', reversals, operatorSpecRoot);
  const statusSide = unprefixed(statusFields(status, operatorStatusRoot));
  const fields = merge(file, '', specSide, statusSide);
  return { fields, reversals };
}

/** The description without the Go field name the operator puts first (`Location: The location ...`). */
function describe(node: CrdNode): string | undefined {
  const text = node.description?.replace(/^[A-Za-z0-9_]+: /, '');
  return text === '' ? undefined : text;
}

const isConfigMapRef = (node: CrdNode): boolean =>
  node.properties?.name !== undefined && /config ?map/i.test(node.properties.key?.description ?? '');
const isSecretRef = (node: CrdNode): boolean =>
  node.properties?.name !== undefined && /Kubernetes secret/.test(node.properties.key?.description ?? '');
/** The operator's `SecretMapReference`: a whole secret by name, no key (every key of it is the map). */
const isSecretMapRef = (node: CrdNode): boolean =>
  node.type === 'object' &&
  Object.keys(node.properties ?? {}).join() === 'name' &&
  /Kubernetes secret/.test(node.properties?.name?.description ?? '');
const isArmReference = (name: string, node: CrdNode): boolean =>
  (name === 'reference' || name.endsWith('Reference')) && node.properties?.armId !== undefined;
const isArmReferenceList = (name: string, node: CrdNode): boolean =>
  name.endsWith('References') && node.type === 'array' && node.items?.properties?.armId !== undefined;

/**
 * A spec tree with the transformations undone; `drop` names root fields that are the operator's own.
 * `status` is the status node at the same place (if any): it keeps ARM's own name for an ID the spec takes
 * as a reference.
 */
function specFields(
  file: string,
  node: CrdNode,
  status: CrdNode | undefined,
  path: string,
  reversals: Reversal[],
  drop: ReadonlySet<string> = new Set(),
): Side {
  const kind = kindOf(file, node, path);
  if (kind === 'array')
    return { node, element: specFields(file, node.items ?? {}, status?.items, `${path}[]`, reversals) };
  if (kind === 'map')
    return {
      node,
      element: specFields(
        file,
        node.additionalProperties as CrdNode,
        typeof status?.additionalProperties === 'object' ? status.additionalProperties : undefined,
        `${path}{}`,
        reversals,
      ),
    };
  if (kind !== 'object') return { node };
  const properties = new Map<string, Side>();
  const renamed = new Map<string, string>();
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (name === '$propertyBag' || drop.has(name)) continue;
    if (name.endsWith('FromConfig') && isConfigMapRef(child)) {
      reversals.push({
        transformation: 'fromConfig',
        owner: path,
        property: name.slice(0, -'FromConfig'.length),
      });
      continue;
    }
    if (isSecretRef(child)) {
      reversals.push({ transformation: 'secrets', owner: path, property: name });
      properties.set(name, { node: { type: 'string', description: child.description } });
      continue;
    }
    if (isSecretMapRef(child)) {
      reversals.push({ transformation: 'secretMaps', owner: path, property: name });
      properties.set(name, {
        node: { type: 'object', additionalProperties: { type: 'string' }, description: child.description },
        element: { node: { type: 'string' } },
      });
      continue;
    }
    if (isArmReference(name, child)) {
      const armName = armIdName(name, status);
      renamed.set(name, armName);
      reversals.push({
        transformation: 'armReferences',
        owner: path,
        property: armName,
        ...(child.properties?.wellKnownName ? { wellKnown: true } : {}),
        ...(node.properties?.[armName]?.type === 'string' ? { compat: true } : {}),
      });
      properties.set(armName, { node: { type: 'string', description: child.description } });
      continue;
    }
    if (isArmReferenceList(name, child)) {
      const armName = armIdsName(name, status);
      renamed.set(name, armName);
      reversals.push({ transformation: 'armReferences', owner: path, property: armName });
      const { items: _items, ...list } = child;
      properties.set(armName, { node: list, element: { node: { type: 'string' } } });
      continue;
    }
    if (name === 'userAssignedIdentities' && child.type === 'array' && child.items?.properties?.reference) {
      reversals.push({ transformation: 'userAssignedIdentities', owner: path, property: name });
      // ARM's value is an identity's details or, where the status says so, any JSON (MySQL's).
      const statusValue = status?.properties?.[name]?.additionalProperties;
      const anyJson = typeof statusValue === 'object' && kindOf(file, statusValue, path) === 'json';
      properties.set(name, {
        node: { type: 'object', description: child.description },
        element: anyJson ? { node: statusValue } : { node: { type: 'object' }, properties: new Map() },
        map: true,
      });
      continue;
    }
    properties.set(name, specFields(file, child, status?.properties?.[name], join(path, name), reversals));
  }
  const required = (node.required ?? []).map((r) => renamed.get(r) ?? r).filter((r) => properties.has(r));
  return { node, properties, required };
}

/**
 * The ARM name of the ID a `<name>Reference` stands for. The operator names the reference after ARM's
 * property, dropping a trailing `Id` (`subnetId` -> `subnetReference`, but `userIdentity` ->
 * `userIdentityReference`), so the name alone is ambiguous; the status, which keeps ARM's ID, says which.
 */
function armIdName(reference: string, status: CrdNode | undefined): string {
  if (reference === 'reference') return 'id';
  return nameTheStatusHas(reference.slice(0, -'Reference'.length), 'Id', status);
}

/**
 * The ARM name of the list of IDs a `<name>References` stands for: `<name>Ids` (`groupReferences` ->
 * `groupIds`) or, where the status has it so, `<name>` itself (`scopesReferences` -> `scopes`).
 */
function armIdsName(references: string, status: CrdNode | undefined): string {
  return nameTheStatusHas(references.slice(0, -'References'.length), 'Ids', status);
}

/** `base` where the status has it and not `base + suffix`; `base + suffix` otherwise. */
function nameTheStatusHas(base: string, suffix: string, status: CrdNode | undefined): string {
  const statusHas = (n: string) => status?.properties?.[n] !== undefined;
  return statusHas(base) && !statusHas(`${base}${suffix}`) ? base : `${base}${suffix}`;
}

/** A status tree without the operator's own fields and bags. */
function statusFields(node: CrdNode, drop: ReadonlySet<string> = new Set()): Side {
  if (node.type === 'array') return { node, element: statusFields(node.items ?? {}) };
  if (node.type === 'object' && typeof node.additionalProperties === 'object')
    return { node, element: statusFields(node.additionalProperties), map: true };
  if (node.type !== 'object') return { node };
  const properties = new Map<string, Side>();
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (name === '$propertyBag' || drop.has(name)) continue;
    properties.set(name, statusFields(child));
  }
  return { node, properties };
}

/**
 * The status root with ARM's names back: where a property of ARM's `properties` has the name of one of the
 * resource's own (`id`, `name`, `type`), the operator's status flattens it as `properties_<name>` (an AKS
 * agent pool's `properties_type`, its pool type, beside `type`, the resource type).
 */
function unprefixed(side: Side): Side {
  if (!side.properties) return side;
  const properties = new Map<string, Side>();
  for (const [name, child] of side.properties) properties.set(armNameInProperties(name), child);
  return { ...side, properties };
}

/** One side's view of a property before the merge. */
interface Side {
  readonly node: CrdNode;
  readonly properties?: ReadonlyMap<string, Side>;
  readonly required?: readonly string[];
  readonly element?: Side;
  readonly map?: boolean;
}

function kindOf(file: string, node: CrdNode, path: string): Field['type'] {
  if (node['x-kubernetes-preserve-unknown-fields'] === true && node.type === undefined) return 'json';
  switch (node.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return node.type;
    case 'array':
      return 'array';
    case 'object':
      if (typeof node.additionalProperties === 'object') return 'map';
      return 'object';
    default:
      throw new UnsupportedCrdShape(file, path, `type ${String(node.type)}`);
  }
}

function typeOf(file: string, side: Side, path: string): Field['type'] {
  return side.map ? 'map' : kindOf(file, side.node, path);
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** Spec and status as one field: what only the status has is read-only, what only the spec has write-only. */
function merge(file: string, path: string, spec: Side | undefined, status: Side | undefined): Field {
  const main = spec ?? status;
  if (!main) throw new UnsupportedCrdShape(file, path, 'neither spec nor status has it');
  const specType = typeOf(file, main, path);
  const statusType = status ? typeOf(file, status, path) : specType;
  const specInteger = spec !== undefined && specType === 'integer' && statusType === 'number';
  const type = specInteger ? 'number' : specType;
  if (spec && status && statusType !== type)
    throw new UnsupportedCrdShape(
      file,
      path,
      `spec has ${type}, status ${statusType} after undoing the operator's transformations`,
    );
  const base = {
    type,
    description: describe(main.node) ?? (status ? describe(status.node) : undefined),
    enum: spec?.node.enum ?? status?.node.enum,
    ...validationsOf(spec?.node),
    format: main.node.format,
    readOnly: spec === undefined && path !== '',
    writeOnly: status === undefined && path !== '',
    inSpec: spec !== undefined,
    ...(specInteger ? { specInteger } : {}),
  };
  if (type === 'array' || type === 'map') {
    const at = `${path}${type === 'array' ? '[]' : '{}'}`;
    const element = merge(file, at, spec?.element, status?.element);
    // Inside a read-only or write-only property the element is that property's: no flag of its own.
    return { ...base, element: { ...element, readOnly: false, writeOnly: false } };
  }
  if (type !== 'object') return base;
  const names = [
    ...new Set([...(spec?.properties?.keys() ?? []), ...(status?.properties?.keys() ?? [])]),
  ].sort();
  const properties = new Map<string, Field>();
  for (const name of names) {
    const field = merge(file, join(path, name), spec?.properties?.get(name), status?.properties?.get(name));
    // Below a property only one side has, the flag is the parent's alone.
    properties.set(name, spec && status ? field : { ...field, readOnly: false, writeOnly: false });
  }
  const statusNode = status?.node;
  // Any validation the operator's CRD keeps below a status object marks it: API Management's circuit breaker
  // status keeps its list and range bounds, as the operator's generator left them on that type.
  const validatedStatus =
    (statusNode?.required?.length ?? 0) > 0 ||
    [...(status?.properties?.values() ?? [])].some(
      (child) =>
        (child.element ?? child).node.enum !== undefined ||
        validates(child.node) ||
        (child.element !== undefined && validates(child.element.node)),
    );
  return {
    ...base,
    properties,
    required: [...(spec?.required ?? [])].sort(),
    ...(validatedStatus ? { validatedStatus } : {}),
  };
}

/** One leaf of a oneOf CRD (seed 004): the spec property holding it, its ARM `kind`, and both sides. */
export interface CrdLeaf {
  readonly property: string;
  /** The status property holding the same leaf (`readWrite`), named after its ARM `kind`. */
  readonly statusProperty: string;
  readonly kindValue: string;
  readonly spec: CrdNode;
  readonly status: CrdNode;
}

/**
 * The leaves of a oneOf CRD, or undefined for a plain one. The operator's spec names a leaf after its type
 * (`readWriteDatabase`) and holds the ARM `kind` as a one-value enum; its status names the same leaf after
 * that `kind` value (`readWrite`), which is how the two sides are paired.
 */
export function oneOfLeaves(file: string, spec: CrdNode, status: CrdNode): CrdLeaf[] | undefined {
  const options = Object.entries(spec.properties ?? {}).filter(([name]) => !operatorSpecRoot.has(name));
  const leaves = options.map(([property, node]) => {
    const kind = node.type === 'object' ? node.properties?.kind?.enum : undefined;
    return { property, node, kindValue: kind?.length === 1 ? kind[0] : undefined };
  });
  if (leaves.length === 0 || leaves.some((l) => typeof l.kindValue !== 'string')) return undefined;
  return leaves.map(({ property, node, kindValue }) => {
    const value = String(kindValue);
    const statusName = value.charAt(0).toLowerCase() + value.slice(1);
    const statusLeaf = status.properties?.[statusName];
    if (!statusLeaf)
      throw new UnsupportedCrdShape(file, `status.${statusName}`, `no status leaf for spec.${property}`);
    return { property, statusProperty: statusName, kindValue: value, spec: node, status: statusLeaf };
  });
}

/** Whether a CRD node states a bound or a pattern. */
function validates(node: CrdNode): boolean {
  return Object.keys(validationsOf(node)).length > 0;
}
