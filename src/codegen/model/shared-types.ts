import type { ObjectDef } from './types.ts';

const str = { kind: 'primitive', primitive: 'string' } as const;

/** `spec.owner` of a resource owned by another object or a plain ARM ID (aso-conventions.md). */
export const knownResourceReference: ObjectDef = {
  kind: 'object',
  name: 'KnownResourceReference',
  description:
    'The owner: a Kubernetes object in the same namespace by name, or an Azure resource by ARM ID.',
  properties: [
    { name: 'name', type: str, required: false, description: 'The name of the owning Kubernetes object.' },
    { name: 'armId', type: str, required: false, description: 'The ARM ID of an owner not managed by ASO.' },
  ],
};

/** `spec.owner` of an extension resource: any kind, by group/kind/name, or an ARM ID. */
export const arbitraryOwnerReference: ObjectDef = {
  kind: 'object',
  name: 'ArbitraryOwnerReference',
  description:
    'The owner of an extension resource: any Kubernetes object by group, kind and name, or an ARM ID.',
  properties: [
    { name: 'group', type: str, required: false },
    { name: 'kind', type: str, required: false },
    { name: 'name', type: str, required: false },
    { name: 'armId', type: str, required: false },
  ],
};

/** An entry of `status.conditions`, shaped as the operator writes them. */
export const condition: ObjectDef = {
  kind: 'object',
  name: 'Condition',
  description: 'One condition of the resource, e.g. Ready.',
  properties: [
    { name: 'type', type: str, required: true },
    { name: 'status', type: str, required: true },
    { name: 'severity', type: str, required: false },
    { name: 'reason', type: str, required: false },
    { name: 'message', type: str, required: false },
    { name: 'lastTransitionTime', type: str, required: false, format: 'date-time' },
    { name: 'observedGeneration', type: { kind: 'primitive', primitive: 'integer' }, required: false },
  ],
};
