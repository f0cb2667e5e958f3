import { reconcilePolicyAnnotation } from '../../../src/lib/health-rules/verdicts.ts';

/**
 * ASO objects in every state `kubectl aso status` knows, for the health-rule agreement tests: the shapes the
 * status tests (test/lib/status/ready-state.test.ts) classify, and the states the operator writes, each with
 * and without reconcile-policy `skip`.
 */

/** One object under test, named for the failure message. */
export interface NamedObject {
  name: string;
  object: Record<string, unknown>;
}

const deletedAt = '2024-01-01T00:00:00Z';

function withReady(
  condition: Record<string, unknown>,
  metadata: Record<string, unknown> = { generation: 1 },
) {
  return {
    metadata,
    status: {
      conditions: [
        { type: 'Other', status: 'False', severity: 'Error' },
        { type: 'Ready', ...condition },
      ],
    },
  };
}

/** The objects of the status tests, as they classify them (Ready, Error, Warning, ... and unreadable ones). */
const statusTestObjects: NamedObject[] = [
  { name: 'Ready', object: withReady({ status: 'True', reason: 'Succeeded', observedGeneration: 1 }) },
  {
    name: 'Error',
    object: withReady({
      status: 'False',
      severity: 'Error',
      reason: 'AuthorizationFailed',
      message: 'no access',
    }),
  },
  { name: 'Warning', object: withReady({ status: 'False', severity: 'Warning', reason: 'WaitingForOwner' }) },
  {
    name: 'Progressing Info',
    object: withReady({ status: 'False', severity: 'Info', reason: 'Reconciling' }),
  },
  { name: 'Progressing Unknown', object: withReady({ status: 'Unknown', reason: 'Reconciling' }) },
  { name: 'Progressing no severity', object: withReady({ status: 'False', reason: 'Reconciling' }) },
  { name: 'reason Deleting', object: withReady({ status: 'False', severity: 'Info', reason: 'Deleting' }) },
  {
    name: 'Ready with a deletion timestamp',
    object: withReady(
      { status: 'True', reason: 'Succeeded' },
      { generation: 1, deletionTimestamp: deletedAt },
    ),
  },
  {
    name: 'deletion without conditions',
    object: { metadata: { generation: 1, deletionTimestamp: deletedAt } },
  },
  {
    name: 'failing deletion (Error)',
    object: withReady(
      { status: 'False', severity: 'Error', reason: 'ScopeLocked' },
      { generation: 1, deletionTimestamp: deletedAt },
    ),
  },
  {
    name: 'failing deletion (Warning)',
    object: withReady(
      { status: 'False', severity: 'Warning', reason: 'Conflict' },
      { generation: 1, deletionTimestamp: deletedAt },
    ),
  },
  { name: 'no status', object: { metadata: { generation: 1 } } },
  { name: 'no conditions', object: { metadata: {}, status: { conditions: [] } } },
  {
    name: 'no Ready condition',
    object: { metadata: {}, status: { conditions: [{ type: 'Other', status: 'True' }] } },
  },
  { name: 'conditions not a list', object: { metadata: {}, status: { conditions: 'Ready' } } },
  { name: 'odd items', object: { metadata: {}, status: { conditions: [null, 7, { type: 'Ready' }] } } },
  { name: 'status Maybe', object: withReady({ status: 'Maybe', reason: 'Odd' }) },
  { name: 'severity Fatal', object: withReady({ status: 'False', severity: 'Fatal', reason: 'Odd' }) },
  {
    name: 'stale Ready',
    object: withReady({ status: 'True', reason: 'Succeeded', observedGeneration: 1 }, { generation: 2 }),
  },
  { name: 'current Ready', object: withReady({ status: 'True', observedGeneration: 3 }, { generation: 3 }) },
  { name: 'Ready without observedGeneration', object: withReady({ status: 'True' }, { generation: 3 }) },
  {
    name: 'deleting with an old observedGeneration',
    object: withReady(
      { status: 'True', observedGeneration: 1 },
      { generation: 2, deletionTimestamp: deletedAt },
    ),
  },
];

/** The states as the operator writes them, at the current generation and one generation behind. */
const operatorStates: NamedObject[] = [
  ['Ready', { status: 'True', reason: 'Succeeded' }],
  [
    'Progressing',
    {
      status: 'False',
      severity: 'Info',
      reason: 'Reconciling',
      message: 'The resource is in the process of being reconciled by the operator',
    },
  ],
  [
    'Warning',
    {
      status: 'False',
      severity: 'Warning',
      reason: 'ResourceGroupNotFound',
      message: "Resource group 'rg' could not be found.",
    },
  ],
  [
    'Error',
    {
      status: 'False',
      severity: 'Error',
      reason: 'InvalidRequestContent',
      message: 'The request content was invalid',
    },
  ],
  ['Unknown', { status: 'Unknown', severity: 'Bogus', reason: 'Odd' }],
].flatMap(([state, condition]) =>
  [3, 2].map((observedGeneration) => ({
    name: `${state as string}${observedGeneration < 3 ? ' (stale)' : ''}`,
    object: {
      metadata: { generation: 3, uid: 'u' },
      spec: { location: 'westeurope' },
      status: {
        conditions: [
          {
            type: 'Ready',
            observedGeneration,
            lastTransitionTime: '2025-01-01T10:00:00Z',
            ...(condition as Record<string, unknown>),
          },
        ],
      },
    },
  })),
);

function withPolicy(named: NamedObject, policy: string): NamedObject {
  const metadata = (named.object.metadata ?? {}) as Record<string, unknown>;
  return {
    name: `${named.name}, reconcile-policy ${policy}`,
    object: {
      ...named.object,
      metadata: { ...metadata, annotations: { [reconcilePolicyAnnotation]: policy } },
    },
  };
}

/** Every object above as is, with reconcile-policy `skip`, and with `manage`. */
export const objectsInEveryState: NamedObject[] = [...statusTestObjects, ...operatorStates].flatMap(
  (named) => [named, withPolicy(named, 'skip'), withPolicy(named, 'manage')],
);

/** The object as an instance of one kind: what a cluster would hand the tools. */
export function asKind(
  object: Record<string, unknown>,
  apiVersion: string,
  kind: string,
): Record<string, unknown> {
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  return { apiVersion, kind, ...object, metadata: { name: 'x', namespace: 'default', ...metadata } };
}
