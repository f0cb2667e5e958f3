import type { ExitCodeName } from '../exit-codes.ts';
import { type Graph, type GraphEdge, type GraphNode, nodeLabel } from '../graph/model.ts';
import { armErrorCodes, operatorReasons, waitingReasons } from './operator-classes.ts';

/**
 * What the cause is: the object is `ready`; still `progressing` with nothing wrong; something it needs is
 * `missing` or `unreadable` (RBAC); an error the operator is `retrying` (severity Warning) or has given up
 * on until the spec changes (`fatal`, severity Error); or the objects wait on each other in a `cycle`.
 */
export type CauseClass = 'ready' | 'progressing' | 'missing' | 'unreadable' | 'retrying' | 'fatal' | 'cycle';

/** One step of the walk: a node, and the field of the previous one that led to it. */
export interface ExplainStep {
  id: string;
  label: string;
  state: string;
  reason: string;
  /** How the previous step names this one (`spec.owner`), null for the first. */
  via: string | null;
}

/** What `explain` prints with `-o json|yaml`. */
export interface Explanation {
  target: string;
  /** From the named object down to the cause, the cause last. */
  steps: ExplainStep[];
  class: CauseClass;
  cause: {
    id: string;
    label: string;
    presence: GraphNode['presence'];
    severity: string;
    reason: string;
    message: string;
    /** The reason as the operator's code classes it. */
    classification: string;
    /** Whether and how the operator tries again. */
    retries: string;
    next: string;
  };
}

const followed = new Set<GraphEdge['relation']>([
  'owner',
  'reference',
  'secret',
  'configMap',
  'ownerReference',
]);

/** How the operator's code classes a condition reason: one of its own reasons, or an ARM error code. */
export function classificationOf(reason: string): string {
  const own = operatorReasons.find((candidate) => candidate.name === reason);
  if (own)
    return `the operator's reason ${reason} (${own.group}, retried ${own.retry === 'none' ? 'never' : own.retry})`;
  const arm = armErrorCodes[reason];
  if (arm === 'fatal') return `ARM error ${reason}, which the operator's classifier deems fatal`;
  if (arm === 'retryableVerySlow')
    return `ARM error ${reason}, which the operator's classifier retries very slowly`;
  if (arm === 'retryable') return `ARM error ${reason}, which the operator's classifier retries`;
  if (reason === '') return 'no reason given';
  return `${reason}: not a reason the operator's classifier names; it retries it by HTTP status (400: very slowly)`;
}

function nextStep(cls: CauseClass, node: GraphNode, via: string | null, from: GraphNode | undefined): string {
  const label = nodeLabel(node);
  switch (cls) {
    case 'ready':
      return 'nothing to do';
    case 'progressing':
      return 'nothing yet: the operator is working on it';
    case 'missing':
      return node.type === 'secret' || node.type === 'configMap'
        ? `create ${label} in namespace ${node.namespace ?? ''}${from && via ? `, or change ${via} of ${nodeLabel(from)}` : ''}`
        : `create ${label}${from && via ? `, or change ${via} of ${nodeLabel(from)}` : ''}`;
    case 'unreadable':
      return `ask for read access to ${label}: it could not be looked at`;
    case 'cycle':
      return 'break the cycle: one of these objects must not wait for the others';
    case 'fatal':
      return `fix the spec of ${label}: the operator tries again only once the spec changes`;
    case 'retrying':
      if (node.reason === 'AuthorizationFailed' || node.reason === 'LinkedAuthorizationFailed') {
        return "grant the operator's identity the role it lacks on that scope; it retries by itself";
      }
      if (node.reason === 'ResourceQuotaExceeded')
        return 'raise the quota or free capacity; the operator retries by itself';
      return 'fix the cause the message names (in Azure or in the spec); the operator retries by itself';
  }
}

function classOf(node: GraphNode): CauseClass {
  if (node.presence === 'missing') return 'missing';
  if (node.presence === 'unknown') return 'unreadable';
  if (node.state === 'Ready') return 'ready';
  if (node.state === 'Error') return 'fatal';
  if (node.state === 'Warning') return 'retrying';
  return 'progressing';
}

/**
 * Walks from `target` down the graph to the first node whose problem is not "waiting for another node":
 * while an object's reason is one of the operator's precondition reasons (WaitingForOwner,
 * ReferenceNotFound, SecretNotFound, ConfigMapNotFound), the walk goes to what it waits for, a missing or
 * unreadable one first, then the first that is not Ready (owner first). The node it stops at is the cause.
 */
export function explain(graph: Graph, target: string): Explanation {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const out = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges)
    if (followed.has(edge.relation)) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const steps: ExplainStep[] = [];
  const seen = new Set<string>();
  let current = target;
  let via: string | null = null;
  let cycle = false;
  for (;;) {
    const node = nodes.get(current) as GraphNode;
    steps.push({
      id: current,
      label: nodeLabel(node),
      state: node.state ?? node.presence,
      reason: node.reason,
      via,
    });
    seen.add(current);
    if (node.type !== 'aso' || node.presence !== 'present' || !waitingReasons.has(node.reason)) break;
    const rank = (edge: GraphEdge): number => {
      const to = nodes.get(edge.to) as GraphNode;
      if (to.presence === 'missing') return 0;
      if (to.presence === 'unknown') return 1;
      if (to.type === 'aso' && to.presence === 'present' && to.state !== 'Ready')
        return edge.relation === 'owner' ? 2 : 3;
      return 9;
    };
    const blocker = (out.get(current) ?? [])
      .filter((edge) => rank(edge) < 9)
      .sort((a, b) => rank(a) - rank(b))[0];
    if (!blocker) break;
    if (seen.has(blocker.to)) {
      cycle = true;
      break;
    }
    current = blocker.to;
    via = blocker.at;
  }
  const cause = nodes.get(current) as GraphNode;
  const cls = cycle ? 'cycle' : classOf(cause);
  const previous = steps.length > 1 ? nodes.get((steps[steps.length - 2] as ExplainStep).id) : undefined;
  const retries =
    cause.reconcilePolicy === 'skip'
      ? 'the operator does not write this resource (reconcile-policy skip)'
      : cls === 'fatal'
        ? 'no: severity Error, the operator gave up until the spec changes'
        : cls === 'retrying'
          ? 'yes: severity Warning, the operator keeps trying'
          : cls === 'missing' || cls === 'unreadable'
            ? 'the waiting object is retried by the operator until this exists'
            : 'yes';
  return {
    target,
    steps,
    class: cls,
    cause: {
      id: cause.id,
      label: nodeLabel(cause),
      presence: cause.presence,
      severity: cause.severity,
      reason: cause.reason,
      message: cause.message,
      classification:
        cause.type === 'aso' && cause.presence === 'present'
          ? classificationOf(cause.reason)
          : `${cause.presence} ${cause.type}`,
      retries,
      next: nextStep(cls, cause, via, previous),
    },
  };
}

/** The exit code of a class: 0 when nothing is wrong, else one code per class of cause. */
export function explainExit(explanation: Explanation): ExitCodeName {
  switch (explanation.class) {
    case 'ready':
    case 'progressing':
      return 'ok';
    case 'missing':
    case 'cycle':
      return 'causeMissing';
    case 'unreadable':
      return 'partial';
    case 'retrying':
      return 'causeRetrying';
    case 'fatal':
      return 'causeFatal';
  }
}
