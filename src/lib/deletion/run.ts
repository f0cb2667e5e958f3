import {
  type EffectivePolicy,
  effectivePolicyOf,
  reconcilePolicyAnnotation,
} from '../adoption/effective-policy.ts';
import {
  credentialFor,
  namespaceAnnotations,
  operatorSettingsSecret,
  readSecret,
  type SecretData,
} from '../adoption/operator-settings.ts';
import type { CredentialMode } from '../azure/arm-reader.ts';
import type { CredentialSettings } from '../azure/credential-settings.ts';
import type { ResourceGroupLister } from '../azure/resource-group-lister.ts';
import { AsoError } from '../errors.ts';
import { armTypeOf } from '../graph/build.ts';
import type { GraphNode, GraphWarning } from '../graph/model.ts';
import { type GraphReport, type GraphRequest, graphFor } from '../graph/report.ts';
import { ownershipOf } from '../graph/tree.ts';
import type { KubeClient } from '../kube/client.ts';
import { kubernetesCascade } from './cascade.ts';
import { declaredArmIds } from './declared.ts';
import type { CascadeItem, DeleteCheckReport, DeletedGroup } from './report.ts';

/** How delete-check reaches Azure: whose credential, and the lister it builds from the settings found. */
export interface DeleteCheckPlan {
  operatorNamespace: string;
  credential: CredentialMode;
  listerOf: (mode: CredentialMode, settings: CredentialSettings) => Promise<ResourceGroupLister>;
}

/** The subscription and group name of a resource group's ARM ID, or undefined for any other ID. */
export function resourceGroupOf(armId: string): { subscription: string; name: string } | undefined {
  const match = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)$/i.exec(armId.replace(/\/+$/, ''));
  return match ? { subscription: match[1] as string, name: match[2] as string } : undefined;
}

async function operatorSettings(
  client: KubeClient,
  plan: DeleteCheckPlan,
  warnings: GraphWarning[],
): Promise<SecretData | undefined> {
  try {
    return await readSecret(client, plan.operatorNamespace, operatorSettingsSecret);
  } catch (error) {
    if (!(error instanceof AsoError)) throw error;
    warnings.push({
      subject: `secret ${plan.operatorNamespace}/${operatorSettingsSecret}`,
      reason: 'Forbidden',
      message: `${error.message}: the operator's DEFAULT_RECONCILE_POLICY is taken as unset (manage)`,
    });
    return undefined;
  }
}

/**
 * Answers "what would `kubectl delete` of these objects (or of the namespace) remove in Azure", reading
 * only: the Kubernetes cascade (the named objects and every ASO object they own, at any depth), each
 * object's effective reconcile policy as the operator resolves it (object annotation, Namespace
 * annotation, the operator's default, `manage`), what that means in Azure (an owner deleted in Azure takes
 * what it contains along, whatever the child's own policy), and for each resource group deleted in Azure,
 * every resource ARM lists in it, with the ASO object that declares it, if any. Resources no object
 * declares are counted: they are the data nobody declared that the delete would lose.
 */
export async function runDeleteCheck(
  client: KubeClient,
  request: GraphRequest,
  plan: DeleteCheckPlan,
): Promise<DeleteCheckReport> {
  const graph: GraphReport = await graphFor(client, request);
  const warnings = [...graph.warnings];
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const roots =
    graph.targets.length > 0
      ? graph.targets
      : graph.nodes
          .filter((node) => node.type === 'aso' && node.presence === 'present')
          .map((node) => node.id);
  const ids = kubernetesCascade(graph, roots);
  const global = await operatorSettings(client, plan, warnings);
  const namespacePolicy = new Map<string, string | undefined>();
  const policies = new Map<string, EffectivePolicy>();
  for (const id of ids) {
    const node = nodes.get(id) as GraphNode;
    const namespace = node.namespace ?? '';
    if (!namespacePolicy.has(namespace)) {
      namespacePolicy.set(
        namespace,
        (await namespaceAnnotations(client, namespace))?.[reconcilePolicyAnnotation],
      );
    }
    const annotations: Record<string, string> = {};
    if (node.reconcilePolicy !== null) annotations[reconcilePolicyAnnotation] = node.reconcilePolicy;
    policies.set(
      id,
      effectivePolicyOf(annotations, {
        namespaceAnnotation: namespacePolicy.get(namespace),
        operatorDefault: global?.DEFAULT_RECONCILE_POLICY,
      }),
    );
  }
  const { ownerOf } = ownershipOf(graph);
  const deletedInAzure = new Set<string>();
  const cascade: CascadeItem[] = ids.map((id) => {
    const node = nodes.get(id) as GraphNode;
    const effective = policies.get(id) as EffectivePolicy;
    let via: string | null = null;
    for (let edge = ownerOf.get(id); edge && via === null; edge = ownerOf.get(edge.to)) {
      if (edge.to === id) break;
      if (deletedInAzure.has(edge.to)) via = edge.to;
    }
    const azure =
      node.armId === null
        ? 'none'
        : effective.policy === 'manage'
          ? 'deletes'
          : via
            ? 'deleted-with-owner'
            : 'keeps';
    if (azure === 'deletes' || azure === 'deleted-with-owner') deletedInAzure.add(id);
    return {
      id,
      namespace: node.namespace,
      kind: node.kind,
      group: node.group,
      name: node.name,
      armId: node.armId,
      policy: effective.policy,
      policySource: effective.policySource,
      azure,
      via: azure === 'deleted-with-owner' ? via : null,
    };
  });
  const groups = cascade.filter(
    (item) =>
      item.armId &&
      (item.azure === 'deletes' || item.azure === 'deleted-with-owner') &&
      resourceGroupOf(item.armId),
  );
  const resourceGroups: DeletedGroup[] = [];
  if (groups.length > 0) {
    const declared = await declaredArmIds(client, warnings);
    for (const item of groups) resourceGroups.push(await listGroup(client, plan, item, global, declared));
  }
  warnings.sort((a, b) => a.subject.localeCompare(b.subject));
  return {
    cascade,
    resourceGroups,
    undeclared: resourceGroups.reduce((sum, group) => sum + group.undeclared, 0),
    warnings,
  };
}

async function listGroup(
  client: KubeClient,
  plan: DeleteCheckPlan,
  item: CascadeItem,
  global: SecretData | undefined,
  declared: Map<string, string>,
): Promise<DeletedGroup> {
  const armId = item.armId as string;
  const group = resourceGroupOf(armId) as { subscription: string; name: string };
  const base = { object: item.id, armId, resources: [], undeclared: 0 };
  let settings: CredentialSettings = {};
  if (plan.credential === 'operator') {
    try {
      const found = await credentialFor(client, item.namespace ?? '', {}, global, plan.operatorNamespace);
      if ('lookedAt' in found) {
        return {
          ...base,
          listing: 'error',
          message: `no credential for it: looked at ${found.lookedAt.join(', ')}`,
        };
      }
      settings = found.settings;
    } catch (error) {
      if (!(error instanceof AsoError)) throw error;
      return { ...base, listing: 'error', message: error.message };
    }
  }
  const listing = await (await plan.listerOf(plan.credential, settings)).list(group.subscription, group.name);
  if (listing.state !== 'listed') {
    return { ...base, listing: listing.state, message: 'message' in listing ? listing.message : '' };
  }
  const resources = listing.resources
    .map((resource) => ({
      id: resource.id,
      type: resource.type || armTypeOf(resource.id),
      name: resource.name,
      declaredBy: declared.get(resource.id.toLowerCase()) ?? null,
    }))
    .sort(
      (a, b) => Number(a.declaredBy !== null) - Number(b.declaredBy !== null) || a.id.localeCompare(b.id),
    );
  return {
    ...base,
    listing: 'listed',
    message: '',
    resources,
    undeclared: resources.filter((resource) => resource.declaredBy === null).length,
  };
}
