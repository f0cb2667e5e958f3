import type { GoValueField, ObjectDef } from './types.ts';

const str = { kind: 'primitive', primitive: 'string' } as const;

/**
 * The name one of the operator's runtime types takes in a package: its Go package, then its Go name
 * (`genruntime_ResourceReference`), so that ARM's own types of the same plain name (AKS's and CDN's
 * `ResourceReference`, Insights' `Condition`) can sit beside it in one package.
 */
export function runtimeTypeName(goPackage: 'genruntime' | 'conditions' | 'core', name: string): string {
  return `${goPackage}_${name}`;
}

/**
 * The operator's validation of an `armId` (genruntime's `ARMID` marker): a subscription, a resource group or
 * a provider resource below either, case-insensitively. Go's regexp syntax, which the API server applies.
 */
const armIdPattern =
  '(?i)(^(/subscriptions/([^/]+)(/resourcegroups/([^/]+))?)?/providers/([^/]+)/([^/]+/[^/]+)(/([^/]+/[^/]+))*$|^/subscriptions/([^/]+)(/resourcegroups/([^/]+))?$)';

/** `spec.owner` of a resource owned by another object or a plain ARM ID (aso-conventions.md). */
export const knownResourceReference: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('genruntime', 'KnownResourceReference'),
  description:
    'The owner: a Kubernetes object in the same namespace by name, or an Azure resource by ARM ID.',
  properties: [
    {
      name: 'name',
      type: str,
      required: false,
      description: 'The name of the owning Kubernetes object.',
      goValue: 'omitZero',
    },
    {
      name: 'armId',
      type: str,
      required: false,
      pattern: armIdPattern,
      description: 'The ARM ID of an owner not managed by ASO.',
      goValue: 'omitZero',
    },
  ],
};

/** `spec.owner` of an extension resource: any kind, by group/kind/name, or an ARM ID. */
export const arbitraryOwnerReference: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('genruntime', 'ArbitraryOwnerReference'),
  description:
    'The owner of an extension resource: any Kubernetes object by group, kind and name, or an ARM ID.',
  properties: [
    { name: 'group', type: str, required: false, goValue: 'omitZero' },
    { name: 'kind', type: str, required: false, goValue: 'omitZero' },
    { name: 'name', type: str, required: false, goValue: 'omitZero' },
    { name: 'armId', type: str, required: false, pattern: armIdPattern, goValue: 'omitZero' },
  ],
};

/** An entry of `status.conditions`, shaped as the operator writes them. */
export const condition: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('conditions', 'Condition'),
  description: 'One condition of the resource, e.g. Ready.',
  // Go's encoding of conditions.Condition: `type`, `status` and `reason` have no omitempty. The zero
  // `lastTransitionTime` (a metav1.Time) the operator writes as null, which the API server prunes from a
  // non-nullable field: a conversion leaves it unset instead (the differential's one remaining exclusion).
  properties: [
    { name: 'type', type: str, required: true, goValue: 'writeZero' },
    { name: 'status', type: str, required: true, goValue: 'writeZero' },
    { name: 'severity', type: str, required: false, goValue: 'omitZero' },
    { name: 'reason', type: str, required: true, goValue: 'writeZero' },
    { name: 'message', type: str, required: false, goValue: 'omitZero' },
    { name: 'lastTransitionTime', type: str, required: true, format: 'date-time' },
    {
      name: 'observedGeneration',
      type: { kind: 'primitive', primitive: 'integer' },
      required: false,
      format: 'int64',
      goValue: 'omitZero',
    },
  ],
};

const armIdDescription =
  'ARMID is a string of the form /subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/{resourceProviderNamespace}/{resourceType}/{resourceName}; mutually exclusive with group, kind and name.';

// Go field order of the operator's genruntime types (Group, Kind, Name, ARMID; Name, Key): a bagged value
// is JSON text in that order.
const referenceProperties = [
  {
    name: 'group',
    type: str,
    required: false,
    description: 'Group is the Kubernetes group of the resource.',
    goValue: 'omitZero',
  },
  {
    name: 'kind',
    type: str,
    required: false,
    description: 'Kind is the Kubernetes kind of the resource.',
    goValue: 'omitZero',
  },
  {
    name: 'name',
    type: str,
    required: false,
    description: 'Name is the Kubernetes name of the resource.',
    goValue: 'omitZero',
  },
  {
    name: 'armId',
    type: str,
    required: false,
    pattern: armIdPattern,
    description: armIdDescription,
    goValue: 'omitZero',
  },
] as const;

/** The operator's `ResourceReference`: an Azure resource by ARM ID, or a Kubernetes object holding one. */
export const resourceReference: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('genruntime', 'ResourceReference'),
  description:
    'ResourceReference represents a resource reference, either to a Kubernetes resource or directly to an Azure resource via ARMID',
  properties: referenceProperties,
};

/** The operator's `WellKnownResourceReference`: a resource reference that may also name a well-known resource. */
export const wellKnownResourceReference: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('genruntime', 'WellKnownResourceReference'),
  description:
    'A resource reference, either to a Kubernetes resource, to an Azure resource via ARMID, or to a well-known resource by name',
  properties: [
    ...referenceProperties,
    { name: 'wellKnownName', type: str, required: false, goValue: 'omitZero' },
  ],
};

/** `goValue`: the operator's SecretReference has no omitempty on its fields, its ConfigMapReference has. */
function keyReference(name: string, what: string, goValue: GoValueField): ObjectDef {
  return {
    kind: 'object',
    runtime: true,
    name: runtimeTypeName('genruntime', name),
    description: `${name} is a reference to a Kubernetes ${what} and key in the same namespace as the resource it is on.`,
    properties: [
      {
        name: 'name',
        type: str,
        required: true,
        description: `Name is the name of the Kubernetes ${what} being referenced; it must be in the same namespace as the resource`,
        goValue,
      },
      {
        name: 'key',
        type: str,
        required: true,
        description: `Key is the key in the Kubernetes ${what} being referenced`,
        goValue,
      },
    ],
  };
}

/** The operator's `SecretReference`: where the operator reads a secret value from. */
export const secretReference: ObjectDef = keyReference('SecretReference', 'secret', 'writeZero');

/** The operator's `SecretMapReference`: a whole secret, every key of it one entry of an ARM map of strings. */
export const secretMapReference: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('genruntime', 'SecretMapReference'),
  description:
    'SecretMapReference is a reference to a Kubernetes secret in the same namespace as the resource it is on.',
  properties: [
    {
      name: 'name',
      type: str,
      required: true,
      description:
        'Name is the name of the Kubernetes secret being referenced; it must be in the same namespace as the resource',
      goValue: 'writeZero',
    },
  ],
};

/** The operator's `ConfigMapReference`: where the operator reads a `*FromConfig` value from. */
export const configMapReference: ObjectDef = keyReference('ConfigMapReference', 'configmap', 'omitZero');

/** One entry of the operator's `userAssignedIdentities` list: the identity by reference. */
export const userAssignedIdentityDetails: ObjectDef = {
  kind: 'object',
  name: 'UserAssignedIdentityDetails',
  description: 'Information about the user assigned identity for the resource',
  properties: [
    // `Reference genruntime.ResourceReference`, a value in the operator's type: written `{}` when unset.
    {
      name: 'reference',
      type: { kind: 'object', name: resourceReference.name },
      required: false,
      goValue: 'writeZero',
    },
  ],
};
