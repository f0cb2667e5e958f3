import type { LiveChildren } from '../../lib/conversion/arm.ts';
/**
 * The primitive types of seed 000: assignment between them needs an identical type. `json` is any JSON
 * value, the operator's `v1.JSON` (ARM's schemaless `type: object`, a CRD's `x-kubernetes-preserve-unknown-fields`):
 * copied whole, never looked into.
 */
export type Primitive = 'string' | 'integer' | 'number' | 'boolean' | 'json';

/**
 * The type of one property, as the generator reasons about it. Enums and objects are named types of the
 * same package, because seed 000 matches them by (case-insensitive) type name between packages.
 */
export type TypeRef =
  | { readonly kind: 'primitive'; readonly primitive: Primitive }
  | { readonly kind: 'enum'; readonly name: string }
  | { readonly kind: 'object'; readonly name: string }
  | { readonly kind: 'array'; readonly element: TypeRef }
  | { readonly kind: 'map'; readonly value: TypeRef };

/** Where a spec or status property sits in the ARM payload, so that the ARM emitter can re-nest it. */
export type ArmPlacement = 'root' | 'properties' | 'none';

/**
 * JSON Schema's bounds on a value, as ARM's schemas and the operator's CRDs state them (`maxLength: 63` on a
 * server name): carried from the import to the generated CRDs' API versions, which validate what users write.
 */
export interface Bounds {
  readonly maxItems?: number | undefined;
  readonly minItems?: number | undefined;
  readonly minLength?: number | undefined;
  readonly maxLength?: number | undefined;
  readonly minimum?: number | undefined;
  readonly maximum?: number | undefined;
  /** Storage management policies' day counts are whole days: `multipleOf: 1` on a number. */
  readonly multipleOf?: number | undefined;
}

const boundKeywords = [
  'maxItems',
  'maxLength',
  'maximum',
  'minItems',
  'minLength',
  'minimum',
  'multipleOf',
] as const;

/** The bounds `node` states, and only those, in a stable order: to spread into another node. */
function boundsOf(node: Bounds | undefined): Bounds {
  const out: Record<string, number> = {};
  for (const keyword of boundKeywords) {
    const value = node?.[keyword];
    if (typeof value === 'number') out[keyword] = value;
  }
  return out;
}

/** Validations a schema node may state on a string or number: a pattern and bounds. */
export interface Validations extends Bounds {
  readonly pattern?: string | undefined;
}

/** The validations `node` states, as schema keywords: its pattern (when it has one), then its bounds. */
export function validationsOf(node: Validations | undefined): Validations {
  const pattern = node?.pattern;
  return { ...(pattern ? { pattern } : {}), ...boundsOf(node) };
}

/** One property of an object type. `name` is the JSON name, exactly as ARM spells it. */
export interface PropertyDef extends Bounds {
  readonly name: string;
  readonly type: TypeRef;
  readonly required: boolean;
  readonly description?: string | undefined;
  readonly readOnly?: boolean | undefined;
  /** ARM's `x-ms-mutability` lacks `update`: the value cannot change after creation. */
  readonly immutable?: boolean | undefined;
  /** ARM's `x-ms-mutability` lacks `read`: ARM never returns the value (the operator's status has no such property). */
  readonly writeOnly?: boolean | undefined;
  readonly pattern?: string | undefined;
  readonly format?: string | undefined;
  /** Only on the top level of a resource spec or status: where ARM carries the property. */
  readonly arm?: ArmPlacement | undefined;
  /** A spec property's path in ARM relative to the object holding it, where not its own name there (`x-arm-path`). */
  readonly armPath?: string | undefined;
  /** Set by the operator's type transformations: the value is not sent to ARM as it stands. */
  readonly armAs?: ArmTransform | undefined;
  /** A list of primitives: the validations of each item (AKS's maintenance hour slots, 0 to 23). */
  readonly items?: Validations | undefined;
  /** The operator's Go field is a value, not a pointer: how Go's JSON encoder writes its zero value. */
  readonly goValue?: GoValueField | undefined;
}

/**
 * A Go field of a value type (a string, number or bool, or a struct), which cannot be absent in Go: with
 * `omitempty` (`omitZero`) its zero value (`""`, `0`, `false`) is left out, so an unset and a zero field
 * read and write the same; without it, or for a struct (`writeZero`), a field nothing set is written as
 * its zero value (`""`, `0`, `false`, `{}`). The operator's references, destinations and conditions are
 * such fields, and `azureName` and `originalVersion`; a conversion writes them as the operator does.
 */
export type GoValueField = 'omitZero' | 'writeZero';

/**
 * How a transformed spec property reaches ARM (src/lib/conversion/arm.ts): a reference resolved to an ARM
 * ID sent as `name`; a list of references sent as the list of their ARM IDs `name`; a secret never sent by
 * kubectl-aso; a config map reference whose value is sent as `name`; a list of identity references sent as
 * the ARM map `name` keyed by their ARM IDs.
 */
export type ArmTransform =
  | { readonly how: 'reference'; readonly name: string }
  | { readonly how: 'references'; readonly name: string }
  | { readonly how: 'secret'; readonly name: string }
  | { readonly how: 'fromConfig'; readonly name: string }
  | { readonly how: 'identities'; readonly name: string };

/** A named object type. `oneOf` marks a root whose properties are mutually exclusive options (seed 004). */
export interface ObjectDef {
  readonly kind: 'object';
  readonly name: string;
  readonly description?: string | undefined;
  readonly properties: readonly PropertyDef[];
  readonly oneOf?: boolean | undefined;
  /**
   * One of the operator's shared runtime types (genruntime's references and destinations, conditions): the
   * same Go type at every version, so a storage variant keeps it as it is (its required fields too) and it
   * never carries a property bag, as in the operator's CRDs.
   */
  readonly runtime?: boolean | undefined;
  /** A status type the operator validates as it does the spec's (see `x-aso-validated-status`). */
  readonly validatedStatus?: boolean | undefined;
  /**
   * A nested discriminated union of the spec (`x-arm-one-of`): its properties are options, and the operator
   * sends the first one set, in this order, in its place; with none set it cannot send the object at all.
   */
  readonly armOneOf?: readonly string[] | undefined;
}

/**
 * Whether objects of `def` in `pkg` carry a `$propertyBag`: only the generated types of storage variants do,
 * as in the operator's CRDs. An API version or a runtime type has nowhere to keep what it cannot type.
 */
export function declaresBag(pkg: PackageDef, def: ObjectDef): boolean {
  return pkg.storage && !def.runtime;
}

/**
 * The options of a oneOf root: its object properties other than those every spec or status has beside them
 * (the owner, the conditions, the operator's own settings), which the operator keeps on the root too.
 */
export function oneOfOptions(def: ObjectDef): PropertyDef[] {
  return def.properties.filter(
    (p) =>
      p.type.kind === 'object' && p.name !== 'owner' && p.name !== 'conditions' && p.name !== 'operatorSpec',
  );
}

/** A named enumeration; seed 000 matches enums by their underlying type. */
export interface EnumDef {
  readonly kind: 'enum';
  readonly name: string;
  readonly base: 'string' | 'integer';
  readonly values: readonly (string | number)[];
}

/** A named type of a package. */
export type TypeDef = ObjectDef | EnumDef;

/**
 * A leaf of a oneOf resource root: the spec property holding it (named after the leaf's type), the status
 * property (named after its `kind`, as the operator names them) and the ARM `kind` value selecting it.
 */
export interface OneOfLeaf {
  readonly property: string;
  readonly statusProperty: string;
  readonly kindValue: string;
  /** The name of the leaf's object type in the spec, and in the status. */
  readonly specType: string;
  readonly statusType: string;
}

/** How a resource is placed in Azure: decides owners and ARM IDs (aso-conventions.md). */
export type ResourceScope = 'resourceGroup' | 'subscription' | 'extension' | 'tenant';

/** A custom resource kind in one package. */
export interface ResourceDef {
  readonly kind: string;
  /** The plural resource name of its CRD (`storageaccounts`; `redis` for Redis). */
  readonly plural: string;
  readonly armType: string;
  readonly armApiVersion: string;
  readonly description?: string | undefined;
  readonly specType: string;
  readonly statusType: string;
  readonly scope: ResourceScope;
  /** The owner's kind in the same group (child resources), `ResourceGroup`, `*` (extension), or none. */
  readonly owner: { readonly group: string; readonly kind: string } | 'any' | undefined;
  readonly oneOf?: readonly OneOfLeaf[] | undefined;
  /**
   * The one name ARM allows for the resource (`default` for a blob service; the schema's `name` is an enum
   * of that value): the spec has no `azureName`, and the ARM body and ID always use this name.
   */
  readonly fixedName?: string | undefined;
  /** The ARM body paths the operator writes as `null` when unset (`x-arm-null-when-unset`). */
  readonly nullWhenUnset?: readonly string[] | undefined;
  /** The ARM body paths of the collections the operator sends empty when unset (`x-arm-empty-when-unset`). */
  readonly emptyWhenUnset?: Readonly<Record<string, 'list' | 'map'>> | undefined;
  /** The child collection the operator fills from Azure before its PUT (`x-arm-live-children`). */
  readonly liveChildren?: LiveChildren | undefined;
}

/**
 * Which prefix a package carries: GA (`v1api`), the plain `v` of the newest operator releases (both are
 * current API versions), or a seed 003 compatibility clone (`v1beta`, `v1alpha1api`).
 */
export type VersionPrefix = 'ga' | 'plain' | 'beta' | 'alpha';

/** The prefixes a current (documented, tested as GA) API version carries. */
export function isCurrentPrefix(prefix: VersionPrefix): boolean {
  return prefix === 'ga' || prefix === 'plain';
}

/**
 * One Go-style package of ASO: a group at one version (`dbforpostgresql`, `v1api20210601`), holding its
 * resources and every named type they use. Storage variants are packages too.
 */
export interface PackageDef {
  readonly group: string;
  readonly version: string;
  readonly armApiVersion: string;
  readonly prefix: VersionPrefix;
  readonly storage: boolean;
  readonly preview: boolean;
  readonly types: ReadonlyMap<string, TypeDef>;
  readonly resources: readonly ResourceDef[];
}

/** The full Kubernetes group name of a short group: `dbforpostgresql` -> `dbforpostgresql.azure.com`. */
export function fullGroup(group: string, suffix: string): string {
  return `${group}.${suffix}`;
}

/** The group a full API group name is `fullGroup` of: `network.frontdoor.azure.com` -> `network.frontdoor`. */
export function shortGroup(full: string, suffix: string): string {
  return full.endsWith(`.${suffix}`) ? full.slice(0, -(suffix.length + 1)) : full;
}

/** A stable key for a package: `dbforpostgresql/v1api20210601`. */
export function packageKey(pkg: Pick<PackageDef, 'group' | 'version'>): string {
  return `${pkg.group}/${pkg.version}`;
}
