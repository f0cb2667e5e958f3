import type { ResourceScope, VersionPrefix } from './types.ts';
import type { Prefixes } from './versions.ts';

/** A property renamed at `apiVersion` (seed 000, external metadata). */
export interface PropertyRename {
  readonly group: string;
  readonly type: string;
  readonly apiVersion: string;
  readonly from: string;
  readonly to: string;
}

/** An object type renamed at `apiVersion`. */
export interface TypeRename {
  readonly group: string;
  readonly apiVersion: string;
  readonly from: string;
  readonly to: string;
}

/** Properties reviewed as gone from `type` at `apiVersion`. */
export interface Removal {
  readonly group: string;
  readonly type: string;
  readonly apiVersion: string;
  readonly properties: readonly string[];
  readonly reason: string;
}

/** A hand-written hook on the storage conversion of `type` into `apiVersion` and back. */
export interface HookConfig {
  readonly group: string;
  readonly type: string;
  readonly apiVersion: string;
  readonly module: string;
  readonly export: string;
  readonly reason: string;
  /**
   * Properties of `type` at older versions that the hook reads from or writes to the property bag (a
   * 2021 `sku` shown as 2014 `edition` and objective): an unknown extra of that name at an older version is
   * reinterpreted, not kept, so the generated tests never draw one there.
   */
  readonly interprets: readonly string[];
  /**
   * Where the operator's own step loses or adds something on a trip from a newer version down past it and
   * back (Cosmos DB's references become bare ARM IDs): paths from the object's root
   * (`spec.networkAclBypassResourceReferences`, a bag entry as `spec.$propertyBag.<Key>`), left out of the
   * generated read-modify-write comparisons that make that trip. Mirroring such a loss is the point, so the
   * hook's own test and the differential against the operator check it instead.
   */
  readonly lossy: readonly string[];
  /**
   * JSON properties whose values, at versions older than the hook's, reach the operator's step and are read
   * as a type of the hook's own version, by property name (MySQL's user-assigned identities, any JSON up to
   * 2023-12-30, read as 2024-12-30's `UserAssignedIdentity_STATUS`): the generated tests draw those values
   * as that type, without extra keys, since the operator's step refuses other JSON and drops unknown keys.
   * Every type of an older package of the group with a JSON property of that name draws it so.
   */
  readonly draws: Readonly<Record<string, string>>;
}

/** Seed 003, option 3b: these ARM API versions of a group also get the listed compatibility prefixes. */
export interface Compatibility {
  readonly group: string;
  readonly apiVersions: readonly string[];
  readonly prefixes: readonly Exclude<VersionPrefix, 'ga'>[];
}

/**
 * The prefixes the operator publishes some ARM API versions of a group under, instead of `v1api` alone: the
 * first is the package built from the schemas, the others clones of it (storage 2021-04-01 is both
 * `v1api20210401` and `v20210401`; PostgreSQL 2025-08-01 only `v20250801`).
 */
export interface Published {
  readonly group: string;
  readonly apiVersions: readonly string[];
  readonly prefixes: readonly ('ga' | 'plain')[];
  /**
   * The ARM types the entry is for, where a group's types differ at one API version (API Management's
   * 2024-05-01 users only as `v20240501`, its services as `v1api20240501` too); none: every type of the group.
   */
  readonly types?: readonly string[] | undefined;
}

/**
 * What the operator exports from one resource type into config maps and secrets (`operatorSpec.configMaps`,
 * `operatorSpec.secrets`): the property names of those two objects, at the listed ARM API versions (all
 * when none is listed). ASO's own generator takes them from its config too; they are not in ARM schemas.
 */
export interface OperatorExports {
  readonly armType: string;
  readonly apiVersions: readonly string[];
  readonly configMaps: readonly string[];
  readonly secrets: readonly string[];
}

/**
 * A setting of the operator's own on one resource type's `operatorSpec`, beside the expressions and exports
 * (RoleAssignment's `namingConvention`). ASO's generator takes these from its config
 * (`$operatorSpecProperties`); they are not in ARM schemas. A string, limited to `enum` when one is listed.
 */
export interface OperatorSpecProperty {
  readonly armType: string;
  readonly apiVersions: readonly string[];
  readonly name: string;
  readonly enum: readonly string[];
  readonly description: string;
}

/**
 * Properties of one object type of a group, at the listed ARM API versions (all when none is listed), that
 * one of the operator's type transformations applies to. ASO's generator reads the same facts from its
 * own config (`$referenceType: arm`, `$isSecret`, `$importConfigMapMode`); they are not in ARM schemas.
 * `type` is the spec-side type name (`RoleAssignment_Spec`, `Network`).
 */
export interface PropertySelection {
  readonly group: string;
  readonly type: string;
  readonly apiVersions: readonly string[];
  readonly properties: readonly string[];
}

/**
 * An ARM ID property to become `<name>Reference`; `wellKnown` adds the operator's `wellKnownName`; `compat`
 * keeps the ID string beside the reference (the operator's `arm+compat`; ARM gets the reference when set).
 */
export interface ArmReferenceSelection extends PropertySelection {
  readonly wellKnown: boolean;
  readonly compat: boolean;
}

/** The operator's type transformations (issue 8, item 3), each naming the properties it applies to. */
export interface Transformations {
  /** ARM IDs the operator takes as references (`armId`, or `group`/`kind`/`name` of an object). */
  readonly armReferences: readonly ArmReferenceSelection[];
  /** Values the operator reads from a Kubernetes secret (`name`, `key`); never in a status. */
  readonly secrets: readonly PropertySelection[];
  /**
   * Maps of strings the operator reads whole from a Kubernetes secret (`name` only: every key of it), as API
   * Management's logger credentials; the status keeps ARM's map.
   */
  readonly secretMaps: readonly PropertySelection[];
  /** Values that may also come from a config map: `<name>FromConfig` (`name`, `key`) beside `<name>`. */
  readonly fromConfig: readonly PropertySelection[];
  /** Maps keyed by a user-assigned identity's ARM ID, which the operator takes as a list of references. */
  readonly userAssignedIdentities: readonly PropertySelection[];
}

/** The ARM identity properties every status has unless the operator leaves them out. */
export const statusIdentity = ['id', 'name', 'type'] as const;

/** One of {@link statusIdentity}. */
export type StatusIdentity = (typeof statusIdentity)[number];

/** The generator configuration (`schemas/generator-config.yaml`), validated. */
export interface GeneratorConfig {
  readonly prefixes: Prefixes;
  readonly groupSuffix: string;
  /**
   * The operator's group of an ARM type, where it is not the provider's (`Microsoft.Network/
   * FrontDoorWebApplicationFirewallPolicies` is `network.frontdoor`: the operator's generator gives the Front
   * Door specs a group suffix of their own).
   */
  readonly groups: Readonly<Record<string, string>>;
  readonly scopes: Readonly<Record<string, ResourceScope>>;
  readonly compatibility: readonly Compatibility[];
  readonly published: readonly Published[];
  /** Kind names the operator gives ARM types, where they differ from the rule (`clusters/databases` -> `Database`). */
  readonly kinds: Readonly<Record<string, string>>;
  /** Plural resource names the operator's CRDs use, where they differ from the rule (`Redis` -> `redis`). */
  readonly plurals: Readonly<Record<string, string>>;
  /**
   * ARM's identity properties (`id`, `name`, `type`) the operator's status leaves out for an ARM type, where
   * its Swagger response does not have them (network's private DNS zone groups have no `type`).
   */
  readonly statusOmits: Readonly<Record<string, readonly StatusIdentity[]>>;
  readonly operatorExports: readonly OperatorExports[];
  readonly operatorSpecProperties: readonly OperatorSpecProperty[];
  readonly renames: { readonly properties: readonly PropertyRename[]; readonly types: readonly TypeRename[] };
  readonly removals: readonly Removal[];
  readonly hooks: readonly HookConfig[];
  readonly transformations: Transformations;
  /**
   * API versions the current operator release no longer serves, imported from the earlier release that did
   * (AKS 2024-04-02-preview, from v2.18.0), so that objects and manifests written at them still convert. The
   * chain between the versions the current release serves stays exactly as that release has it: no storage
   * compat type is made for a shape only such a version has (v2.20.0 has none at 2024-09-01; v2.18.0 had
   * three, so the preview's values under them may end in nested bags where v2.18.0 typed them).
   */
  readonly removedVersions: readonly RemovedVersions[];
}

/** API versions of a group that only an earlier release served (see `GeneratorConfig.removedVersions`). */
export interface RemovedVersions {
  readonly group: string;
  readonly apiVersions: readonly string[];
  /** The newest release that served them, which the import read them from. */
  readonly release: string;
}

/** Raised when the config does not have the expected shape; names the offending path. */
export class ConfigError extends Error {}

type Json = Record<string, unknown>;

/** Checks the parsed YAML and returns it typed; rejects unknown keys so typos cannot pass silently. */
export function validateConfig(raw: unknown): GeneratorConfig {
  const root = record(raw, 'config');
  keys(root, 'config', [
    'prefixes',
    'groupSuffix',
    'groups',
    'scopes',
    'compatibility',
    'published',
    'kinds',
    'plurals',
    'statusOmits',
    'operatorExports',
    'operatorSpecProperties',
    'renames',
    'removals',
    'hooks',
    'transformations',
    'removedVersions',
  ]);
  const transformations = record(root.transformations ?? {}, 'transformations');
  keys(transformations, 'transformations', [
    'armReferences',
    'secrets',
    'secretMaps',
    'fromConfig',
    'userAssignedIdentities',
  ]);
  const prefixes = record(root.prefixes, 'prefixes');
  keys(prefixes, 'prefixes', ['ga', 'plain', 'beta', 'alpha']);
  const kinds = record(root.kinds ?? {}, 'kinds');
  for (const [type, kind] of Object.entries(kinds)) {
    if (!/^[A-Za-z]+(\.[A-Za-z]+)+(\/[A-Za-z][A-Za-z0-9]*)+$/.test(type))
      throw new ConfigError(`kinds: "${type}" is not an ARM resource type (Provider.Namespace/type)`);
    if (!/^[A-Z][A-Za-z0-9]*$/.test(text(kind, `kinds.${type}`)))
      throw new ConfigError(`kinds.${type}: "${String(kind)}" is not a kind name (PascalCase)`);
  }
  const groups = record(root.groups ?? {}, 'groups');
  for (const [type, group] of Object.entries(groups)) {
    if (!/^[A-Za-z]+(\.[A-Za-z]+)+(\/[A-Za-z][A-Za-z0-9]*)+$/.test(type))
      throw new ConfigError(`groups: "${type}" is not an ARM resource type (Provider.Namespace/type)`);
    if (!/^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*$/.test(text(group, `groups.${type}`)))
      throw new ConfigError(`groups.${type}: "${String(group)}" is not a group name (lower case, dotted)`);
  }
  const plurals = record(root.plurals ?? {}, 'plurals');
  for (const [type, plural] of Object.entries(plurals))
    if (!/^[a-z][a-z0-9]*$/.test(text(plural, `plurals.${type}`)))
      throw new ConfigError(`plurals.${type}: "${String(plural)}" is not a resource name (lower case)`);
  const statusOmits = record(root.statusOmits ?? {}, 'statusOmits');
  for (const [type, omitted] of Object.entries(statusOmits))
    for (const p of texts(omitted, `statusOmits.${type}`))
      if (!(statusIdentity as readonly string[]).includes(p))
        throw new ConfigError(`statusOmits.${type}: "${p}" is not one of ${statusIdentity.join(', ')}`);
  const scopes = record(root.scopes ?? {}, 'scopes');
  const validScopes = ['resourceGroup', 'subscription', 'extension', 'tenant'];
  for (const [type, scope] of Object.entries(scopes)) {
    if (typeof scope !== 'string' || !validScopes.includes(scope)) {
      throw new ConfigError(`scopes.${type}: expected one of ${validScopes.join(', ')}`);
    }
  }
  const renames = record(root.renames ?? {}, 'renames');
  keys(renames, 'renames', ['properties', 'types']);
  return {
    prefixes: {
      ga: text(prefixes.ga, 'prefixes.ga'),
      plain: text(prefixes.plain, 'prefixes.plain'),
      beta: text(prefixes.beta, 'prefixes.beta'),
      alpha: text(prefixes.alpha, 'prefixes.alpha'),
    },
    groupSuffix: text(root.groupSuffix, 'groupSuffix'),
    groups: groups as Record<string, string>,
    scopes: scopes as Record<string, ResourceScope>,
    compatibility: list(root.compatibility, 'compatibility').map((entry, i) => {
      const at = `compatibility[${i}]`;
      const e = record(entry, at);
      keys(e, at, ['group', 'apiVersions', 'prefixes']);
      const chosen = texts(e.prefixes, `${at}.prefixes`);
      for (const p of chosen)
        if (p !== 'alpha' && p !== 'beta')
          throw new ConfigError(`${at}.prefixes: "${p}" is not alpha or beta`);
      return {
        group: text(e.group, `${at}.group`),
        apiVersions: texts(e.apiVersions, `${at}.apiVersions`),
        prefixes: chosen as ('alpha' | 'beta')[],
      };
    }),
    published: list(root.published, 'published').map((entry, i) => {
      const at = `published[${i}]`;
      const e = record(entry, at);
      keys(e, at, ['group', 'apiVersions', 'prefixes', 'types']);
      const chosen = texts(e.prefixes, `${at}.prefixes`);
      if (chosen.length === 0) throw new ConfigError(`${at}.prefixes: expected at least one prefix`);
      for (const p of chosen)
        if (p !== 'ga' && p !== 'plain') throw new ConfigError(`${at}.prefixes: "${p}" is not ga or plain`);
      const types = e.types === undefined ? undefined : texts(e.types, `${at}.types`);
      // GA alone is what an API version gets without an entry: only a list of types can make it a choice.
      if (types === undefined && chosen.length === 1 && chosen[0] === 'ga')
        throw new ConfigError(`${at}.prefixes: GA alone is the default; name the types it is for`);
      return {
        group: text(e.group, `${at}.group`),
        apiVersions: texts(e.apiVersions, `${at}.apiVersions`),
        prefixes: chosen as ('ga' | 'plain')[],
        ...(types === undefined ? {} : { types }),
      };
    }),
    removedVersions: list(root.removedVersions, 'removedVersions').map((entry, i) => {
      const at = `removedVersions[${i}]`;
      const e = record(entry, at);
      keys(e, at, ['group', 'apiVersions', 'release']);
      return {
        group: text(e.group, `${at}.group`),
        apiVersions: texts(e.apiVersions, `${at}.apiVersions`),
        release: text(e.release, `${at}.release`),
      };
    }),
    kinds: kinds as Record<string, string>,
    plurals: plurals as Record<string, string>,
    statusOmits: statusOmits as Record<string, StatusIdentity[]>,
    operatorExports: list(root.operatorExports, 'operatorExports').map((entry, i) => {
      const at = `operatorExports[${i}]`;
      const e = record(entry, at);
      keys(e, at, ['armType', 'apiVersions', 'configMaps', 'secrets']);
      return {
        armType: text(e.armType, `${at}.armType`),
        apiVersions: texts(e.apiVersions, `${at}.apiVersions`),
        configMaps: texts(e.configMaps, `${at}.configMaps`),
        secrets: texts(e.secrets, `${at}.secrets`),
      };
    }),
    operatorSpecProperties: list(root.operatorSpecProperties, 'operatorSpecProperties').map((entry, i) => {
      const at = `operatorSpecProperties[${i}]`;
      const e = record(entry, at);
      keys(e, at, ['armType', 'apiVersions', 'name', 'enum', 'description']);
      return {
        armType: text(e.armType, `${at}.armType`),
        apiVersions: texts(e.apiVersions, `${at}.apiVersions`),
        name: text(e.name, `${at}.name`),
        enum: texts(e.enum, `${at}.enum`),
        description: text(e.description, `${at}.description`),
      };
    }),
    renames: {
      properties: list(renames.properties, 'renames.properties').map((entry, i) => {
        const at = `renames.properties[${i}]`;
        const e = record(entry, at);
        keys(e, at, ['group', 'type', 'apiVersion', 'from', 'to']);
        return {
          group: text(e.group, at),
          type: text(e.type, at),
          apiVersion: text(e.apiVersion, at),
          from: text(e.from, at),
          to: text(e.to, at),
        };
      }),
      types: list(renames.types, 'renames.types').map((entry, i) => {
        const at = `renames.types[${i}]`;
        const e = record(entry, at);
        keys(e, at, ['group', 'apiVersion', 'from', 'to']);
        return {
          group: text(e.group, at),
          apiVersion: text(e.apiVersion, at),
          from: text(e.from, at),
          to: text(e.to, at),
        };
      }),
    },
    removals: list(root.removals, 'removals').map((entry, i) => {
      const at = `removals[${i}]`;
      const e = record(entry, at);
      keys(e, at, ['group', 'type', 'apiVersion', 'properties', 'reason']);
      return {
        group: text(e.group, at),
        type: text(e.type, at),
        apiVersion: text(e.apiVersion, at),
        properties: texts(e.properties, `${at}.properties`),
        reason: text(e.reason, `${at}.reason`),
      };
    }),
    hooks: list(root.hooks, 'hooks').map((entry, i) => {
      const at = `hooks[${i}]`;
      const e = record(entry, at);
      keys(e, at, [
        'group',
        'type',
        'apiVersion',
        'module',
        'export',
        'reason',
        'interprets',
        'lossy',
        'draws',
      ]);
      return {
        group: text(e.group, at),
        type: text(e.type, at),
        apiVersion: text(e.apiVersion, at),
        module: text(e.module, at),
        export: text(e.export, at),
        reason: text(e.reason, `${at}.reason`),
        interprets: texts(e.interprets, `${at}.interprets`),
        lossy: texts(e.lossy, `${at}.lossy`),
        draws: textMap(e.draws, `${at}.draws`),
      };
    }),
    transformations: {
      armReferences: list(transformations.armReferences, 'transformations.armReferences').map((entry, i) => {
        const at = `transformations.armReferences[${i}]`;
        const e = record(entry, at);
        keys(e, at, [...selectionKeys, 'wellKnown', 'compat']);
        for (const flag of ['wellKnown', 'compat'])
          if (e[flag] !== undefined && typeof e[flag] !== 'boolean')
            throw new ConfigError(`${at}.${flag}: expected true or false`);
        return { ...selection(e, at), wellKnown: e.wellKnown === true, compat: e.compat === true };
      }),
      secrets: selections(transformations.secrets, 'transformations.secrets'),
      secretMaps: selections(transformations.secretMaps, 'transformations.secretMaps'),
      fromConfig: selections(transformations.fromConfig, 'transformations.fromConfig'),
      userAssignedIdentities: selections(
        transformations.userAssignedIdentities,
        'transformations.userAssignedIdentities',
      ),
    },
  };
}

const selectionKeys = ['group', 'type', 'apiVersions', 'properties'] as const;

function selection(e: Json, at: string): PropertySelection {
  const properties = texts(e.properties, `${at}.properties`);
  if (properties.length === 0) throw new ConfigError(`${at}.properties: expected at least one property`);
  return {
    group: text(e.group, `${at}.group`),
    type: text(e.type, `${at}.type`),
    apiVersions: texts(e.apiVersions, `${at}.apiVersions`),
    properties,
  };
}

function selections(value: unknown, at: string): PropertySelection[] {
  return list(value, at).map((entry, i) => {
    const e = record(entry, `${at}[${i}]`);
    keys(e, `${at}[${i}]`, selectionKeys);
    return selection(e, `${at}[${i}]`);
  });
}

function record(value: unknown, at: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(`${at}: expected a mapping`);
  return value as Json;
}

function list(value: unknown, at: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ConfigError(`${at}: expected a list`);
  return value;
}

function text(value: unknown, at: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${at}: expected a non-empty string`);
  return value;
}

function textMap(value: unknown, at: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  return Object.fromEntries(Object.entries(record(value, at)).map(([k, v]) => [k, text(v, `${at}.${k}`)]));
}

function texts(value: unknown, at: string): string[] {
  return list(value, at).map((v, i) => text(v, `${at}[${i}]`));
}

function keys(value: Json, at: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new ConfigError(`${at}: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  }
}
