import { flattenedStatusName } from '../../lib/conversion/arm.ts';
import type { GeneratorConfig } from '../model/config.ts';
import { groupOfType, kindOf, pluralOf, statusName } from '../model/names.ts';
import { servedPrefixes, unionOfPrefixes } from '../model/served-prefixes.ts';
import { arbitraryOwnerReference, condition, knownResourceReference } from '../model/shared-types.ts';
import { type Side, TypeBuilder } from '../model/type-builder.ts';
import {
  type OneOfLeaf,
  type PropertyDef,
  type ResourceDef,
  type ResourceScope,
  validationsOf,
} from '../model/types.ts';
import { versionName } from '../model/versions.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';
import type { JsonSchema, RawSchema } from './load-schemas.ts';

/**
 * Builds one GA package per group and ARM API version, shaped as ASO shapes resources: ARM `properties`
 * flattened into spec and status, `azureName` and `owner` on the spec, `conditions` on the status, and a
 * oneOf root (seed 004) with one property per leaf, the name on the root as the operator has it.
 */
export const buildApiPackages = stage({
  id: 'buildApiPackages',
  description: 'Build ASO-shaped API packages from the schemas',
  needs: ['loadConfig', 'loadSchemas'],
  run: (state) => {
    const config = need(state.config, 'config');
    const described = new Set(need(state.schemas, 'schemas').map((s) => `${s.provider}/${s.typePath}`));
    for (const armType of Object.keys(config.kinds))
      if (!described.has(armType))
        throw new Error(`kinds: no schema describes ${armType}, so its kind name would name nothing`);
    const byPackage = new Map<
      string,
      { group: string; apiVersion: string; builder: TypeBuilder; resources: ResourceDef[] }
    >();
    for (const schema of need(state.schemas, 'schemas')) {
      const group = groupOfType(config.groups, `${schema.provider}/${schema.typePath}`);
      const key = `${group}/${schema.apiVersion}`;
      let entry = byPackage.get(key);
      if (!entry) {
        entry = { group, apiVersion: schema.apiVersion, builder: new TypeBuilder(), resources: [] };
        byPackage.set(key, entry);
      }
      entry.resources.push(buildResource(config, schema, entry.builder));
    }
    for (const entry of [...byPackage.values()].sort((a, b) =>
      `${a.group}/${a.apiVersion}` < `${b.group}/${b.apiVersion}` ? -1 : 1,
    )) {
      // A package is built under the first prefix any of its kinds is served under; clones and the kinds
      // each holds come later (addCompatibilityVersions).
      const [prefix = 'ga'] = unionOfPrefixes(
        entry.resources.map((r) => servedPrefixes(config, entry.group, entry.apiVersion, r.armType)),
      );
      state.packages.push({
        group: entry.group,
        version: versionName(config.prefixes, prefix, entry.apiVersion),
        armApiVersion: entry.apiVersion,
        prefix,
        storage: false,
        preview: entry.apiVersion.endsWith('-preview'),
        types: entry.builder.types,
        resources: entry.resources.sort((a, b) => (a.kind < b.kind ? -1 : 1)),
      });
    }
  },
});

const skippedAtRoot = new Set(['name', 'type', 'apiVersion', 'id', 'properties']);

function buildResource(config: GeneratorConfig, schema: RawSchema, builder: TypeBuilder): ResourceDef {
  const armType = `${schema.provider}/${schema.typePath}`;
  const kind = config.kinds[armType] ?? kindOf(schema.typePath);
  const plural = config.plurals[armType] ?? pluralOf(kind);
  const scope: ResourceScope = config.scopes[armType] ?? 'resourceGroup';
  const owner = ownerOf(config, schema, scope);
  builder.add(condition, 'shared types');
  const ownerProp = ownerProperty(builder, owner);
  const specType = `${kind}_Spec`;
  const statusType = schema.resource['x-aso-status-type'] ?? `${kind}_STATUS`;
  const conditions: PropertyDef = {
    name: 'conditions',
    type: { kind: 'array', element: { kind: 'object', name: condition.name } },
    required: false,
    description: 'The observed state of the resource, e.g. Ready.',
    arm: 'none',
  };
  const nameRules = armNameOf(schema, builder);
  const azureName: PropertyDef = {
    name: 'azureName',
    type: { kind: 'primitive', primitive: 'string' },
    required: false,
    arm: 'none',
    description: 'The name of the resource in Azure; defaults to metadata.name.',
    goValue: 'omitZero',
    // ARM's rules for the name, which the operator's CRDs put on azureName.
    ...validationsOf(nameRules),
  };
  if (schema.resource.oneOf) {
    // As the operator shapes a oneOf resource: the name and owner on the root, one property per leaf,
    // named after the leaf's type in the spec and after its `kind` in the status (ASO's generator takes
    // the spec's leaves from the ARM schema's definitions, the status's from the discriminator values).
    const leaves = schema.resource.oneOf.map((ref) => oneOfLeaf(schema, builder, ref));
    builder.add(
      {
        kind: 'object',
        name: specType,
        oneOf: true,
        description: schema.resource.description,
        properties: [
          azureName,
          ...(ownerProp ? [ownerProp] : []),
          ...leaves.map((l) => leafProperty(l.property, l.specType)),
        ],
      },
      schema.file,
    );
    const name = identity().find((p) => p.name === 'name');
    builder.add(
      {
        kind: 'object',
        name: statusType,
        oneOf: true,
        properties: [
          conditions,
          ...(name ? [name] : []),
          ...leaves.map((l) => leafProperty(l.statusProperty, l.statusType)),
        ],
      },
      schema.file,
    );
    return {
      kind,
      plural,
      armType,
      armApiVersion: schema.apiVersion,
      description: schema.resource.description,
      specType,
      statusType,
      scope,
      owner,
      oneOf: leaves,
      ...encodingOf(schema),
    };
  }
  const fixedName = fixedNameOf(schema);
  builder.add(
    {
      kind: 'object',
      name: specType,
      description: schema.resource.description,
      properties: [
        ...(fixedName === undefined ? [azureName] : []),
        ...(ownerProp ? [ownerProp] : []),
        ...flattened(schema, builder, schema.resource, kind, 'spec'),
      ],
    },
    schema.file,
  );
  builder.add(
    {
      kind: 'object',
      name: statusType,
      description: schema.resource.description,
      properties: [
        conditions,
        ...identity().filter((p) => !(config.statusOmits[armType] ?? []).some((o) => o === p.name)),
        ...flattened(schema, builder, schema.resource, kind, 'status'),
      ],
    },
    schema.file,
  );
  return {
    kind,
    plural,
    armType,
    armApiVersion: schema.apiVersion,
    description: schema.resource.description,
    specType,
    statusType,
    scope,
    owner,
    ...(fixedName !== undefined ? { fixedName } : {}),
    ...encodingOf(schema),
  };
}

/**
 * What the operator's Go code does to the body beyond the spec: what its encoder writes for unset
 * collections (null, or empty), and the child collection it fills from Azure.
 */
function encodingOf(
  schema: RawSchema,
): Pick<ResourceDef, 'nullWhenUnset' | 'emptyWhenUnset' | 'liveChildren'> {
  const paths = schema.resource['x-arm-null-when-unset'];
  const empty = schema.resource['x-arm-empty-when-unset'];
  const children = schema.resource['x-arm-live-children'];
  return {
    ...(children === undefined ? {} : { liveChildren: children }),
    ...(paths === undefined ? {} : { nullWhenUnset: [...paths].sort() }),
    ...(empty === undefined
      ? {}
      : { emptyWhenUnset: Object.fromEntries(Object.entries(empty).sort(([a], [b]) => (a < b ? -1 : 1))) }),
  };
}

/**
 * The name a resource must have, when its schema allows one only (ARM's schemas write a blob service's
 * `name` as the enum `["default"]`, as the operator's generator reads it).
 */
function fixedNameOf(schema: RawSchema): string | undefined {
  const values = schema.resource.properties?.name?.enum;
  if (values === undefined || values.length !== 1) return undefined;
  const [value] = values;
  if (typeof value !== 'string')
    throw new Error(`${schema.file}: the name enum ${String(value)} is not a string`);
  return value;
}

/** Root properties (except name/type/apiVersion/id) then the contents of `properties`, names checked unique. */
function flattened(
  schema: RawSchema,
  builder: TypeBuilder,
  def: JsonSchema,
  owner: string,
  side: Side,
): PropertyDef[] {
  const propsRef = def.properties?.properties;
  // ARM's `x-ms-client-flatten: false`: the operator keeps `properties` as a property of its own (a
  // ResourceGroup's status has `properties.provisioningState`).
  const keepProperties = propsRef?.['x-ms-client-flatten'] === false;
  const rootOnly: JsonSchema = {
    ...def,
    properties: Object.fromEntries(
      Object.entries(def.properties ?? {}).filter(
        ([n]) => !skippedAtRoot.has(n) || (n === 'properties' && keepProperties),
      ),
    ),
  };
  const root = builder.properties(schema, rootOnly, owner, side, 'root');
  const inner =
    propsRef?.$ref && !keepProperties
      ? builder.properties(schema, builder.definition(schema, propsRef.$ref), owner, side, 'properties')
      : [];
  // The status keeps ARM's own id, name and type: a property of `properties` named so is flattened as
  // `properties_<name>`, as the operator does (an AKS agent pool's pool type beside its resource type).
  const named = side === 'status' ? inner.map((p) => ({ ...p, name: flattenedStatusName(p.name) })) : inner;
  // A spec has no id, name or type of its own (the ARM name is `azureName`, the resource type is not set by
  // users): `properties.type` and `properties.name` keep their names (an autoscale setting's `name`).
  const seen = new Set<string>(['azurename', 'owner', 'conditions']);
  if (side === 'status') for (const own of ['id', 'name', 'type']) seen.add(own);
  for (const p of [...root, ...named]) {
    if (seen.has(p.name.toLowerCase()))
      throw new Error(`${schema.file}: property ${p.name} collides after flattening properties`);
    seen.add(p.name.toLowerCase());
  }
  return [...root, ...named];
}

function identity(): PropertyDef[] {
  const str = { kind: 'primitive', primitive: 'string' } as const;
  return [
    { name: 'id', type: str, required: false, readOnly: true, arm: 'root' },
    { name: 'name', type: str, required: false, readOnly: true, arm: 'root' },
    { name: 'type', type: str, required: false, readOnly: true, arm: 'root' },
  ];
}

/** ARM's `name` of the resource (of its first leaf, for a oneOf resource), whose rules azureName takes. */
function armNameOf(schema: RawSchema, builder: TypeBuilder): JsonSchema | undefined {
  const first = schema.resource.oneOf?.[0]?.$ref;
  const body = first ? builder.definition(schema, first) : schema.resource;
  return body.properties?.name;
}

function oneOfLeaf(schema: RawSchema, builder: TypeBuilder, ref: JsonSchema): OneOfLeaf {
  if (!ref.$ref) throw new Error(`${schema.file}: oneOf entries must be $refs`);
  const name = ref.$ref.replace('#/definitions/', '');
  const def = builder.definition(schema, ref.$ref);
  const kindProp = def.properties?.kind;
  const kindValue = kindProp?.enum?.[0];
  if (typeof kindValue !== 'string')
    throw new Error(`${schema.file}: oneOf leaf ${name} has no single-valued kind discriminator`);
  if (!def.properties?.name)
    throw new Error(`${schema.file}: oneOf leaf ${name} has no name (ARM's body of every leaf carries one)`);
  builder.add(
    {
      kind: 'object',
      name,
      description: def.description,
      properties: flattened(schema, builder, def, name, 'spec'),
    },
    schema.file,
  );
  builder.add(
    {
      kind: 'object',
      name: statusName(name),
      properties: [
        ...identity().filter((p) => p.name !== 'name'),
        ...flattened(schema, builder, def, name, 'status'),
      ],
    },
    schema.file,
  );
  return {
    property: lowerFirst(name),
    statusProperty: lowerFirst(kindValue),
    kindValue,
    specType: name,
    statusType: statusName(name),
  };
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

function leafProperty(name: string, type: string): PropertyDef {
  return { name, type: { kind: 'object', name: type }, required: false, arm: 'none' };
}

function ownerOf(config: GeneratorConfig, schema: RawSchema, scope: ResourceScope): ResourceDef['owner'] {
  if (scope === 'extension') return 'any';
  if (scope === 'subscription' || scope === 'tenant') return undefined;
  const parent = schema.typePath.split('/').slice(0, -1).join('/');
  // The parent's kind as the operator names it (`Microsoft.Cache/redis` is `Redis`, not the rule's `Redi`).
  const parentType = `${schema.provider}/${parent}`;
  if (parent)
    return {
      group: groupOfType(config.groups, parentType),
      kind: config.kinds[parentType] ?? kindOf(parent),
    };
  return { group: 'resources', kind: 'ResourceGroup' };
}

function ownerProperty(builder: TypeBuilder, owner: ResourceDef['owner']): PropertyDef | undefined {
  if (owner === undefined) return undefined;
  const type = owner === 'any' ? arbitraryOwnerReference : knownResourceReference;
  builder.add(type, 'shared types');
  return {
    name: 'owner',
    type: { kind: 'object', name: type.name },
    required: true,
    arm: 'none',
    description: type.description,
  };
}
