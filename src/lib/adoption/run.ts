import type { ArmLookup, ArmReader, CredentialMode } from '../azure/arm-reader.ts';
import type { CredentialSettings } from '../azure/credential-settings.ts';
import { CredentialNotFound } from '../azure/errors.ts';
import { AsoError, InvalidInput } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { Forbidden } from '../kube/errors.ts';
import type { ManifestObject, ManifestSet } from '../manifests/read.ts';
import { isSubscriptionId } from './arm-id-input.ts';
import { clusterObject, readClusterOwners, recordedArmId, resourceIdAnnotation } from './cluster-owners.ts';
import { desiredArmOf } from './desired-body.ts';
import { effectivePolicyOf, operatorDefaultProblem, type PolicyContext } from './effective-policy.ts';
import { type CrdLike, crdArmIndexOf } from './kind-arm.ts';
import { type ModifiedBody, operatorModifiedBody } from './operator-modifiers.ts';
import {
  credentialFor,
  namespaceAnnotations,
  operatorSettingsSecret,
  readSecret,
  type SecretData,
} from './operator-settings.ts';
import { type Existence, outcomeOf } from './outcome.ts';
import type { ProgressReporter } from './progress.ts';
import { prefetchedResolvers, referenceLookupOf } from './reference-lookup.ts';
import { type AdoptItem, type AdoptReport, summaryOf } from './report.ts';
import { type ArmIdAnswer, namespaceOf, resolveArmIds } from './resolve-arm-id.ts';
import { flagImmutable, whatIf, withoutWriteOnly } from './what-if.ts';

/** Everything one adopt-check run needs besides the objects. */
export interface AdoptPlan {
  /** The cluster, or undefined when none is reachable (then only --subscription and local credentials work). */
  client: KubeClient | undefined;
  defaultNamespace: string;
  operatorNamespace: string;
  subscription: string | undefined;
  credential: CredentialMode;
  concurrency: number;
  /** Builds the ARM reader; injected so the Azure libraries load only here, and tests can fake ARM. */
  readerOf: (mode: CredentialMode, settings: CredentialSettings) => Promise<ArmReader>;
  /** Told after each resource is answered (a spinner on a terminal); optional. */
  progress?: ProgressReporter;
  /** The cluster's ASO CRDs when the caller has listed them already (`--from-cluster`); else listed here. */
  crds?: CrdLike[] | undefined;
  /** Runs lookups with at most `limit` at a time. */
  mapBounded: <T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) => Promise<R[]>;
}

async function listCrds(client: KubeClient, warnings: string[]): Promise<CrdLike[]> {
  try {
    const list = await client.request<{ items: CrdLike[] }>({
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      subject: { verb: 'list', resource: 'customresourcedefinitions' },
    });
    return list.items.filter((crd) => crd.spec.group.endsWith('.azure.com'));
  } catch (error) {
    if (error instanceof Forbidden) {
      warnings.push('cannot list CRDs (forbidden): ARM shapes come from the catalog and naming inference');
      return [];
    }
    throw error;
  }
}

function existenceOf(lookup: ArmLookup, answer: ArmIdAnswer, given: Set<ManifestObject>): Existence {
  switch (lookup.state) {
    case 'found':
      return { state: 'exists' };
    case 'not-found':
      // A resource group's own 404 is ResourceGroupNotFound: that is the resource missing, not its parent.
      if (/\/resourceGroups\/[^/]+$/i.test(answer.armId ?? '')) return { state: 'missing' };
      if (lookup.code === 'ResourceGroupNotFound' || lookup.code === 'ParentResourceNotFound') {
        return {
          state: 'parent-missing',
          code: lookup.code,
          parentCreatedHere: 'owner' in answer && answer.owner !== undefined && given.has(answer.owner),
        };
      }
      return { state: 'missing' };
    case 'forbidden':
      return { state: 'unknown', reason: `cannot tell: ${lookup.message}` };
    case 'error':
      return { state: 'unknown', reason: `cannot tell: ${lookup.message}` };
  }
}

/**
 * One adopt-check run, read-only end to end: CRDs and settings from the cluster (GETs only), ARM IDs
 * from owners, one GET per resource in Azure with bounded concurrency, then the seed-001 outcome and a
 * what-if for each resource that exists. Returns the report and the exit code name.
 */
export async function runAdoptCheck(set: ManifestSet, plan: AdoptPlan): Promise<AdoptReport> {
  const warnings: string[] = [];
  const { client } = plan;
  const crds = plan.crds ?? (client ? await listCrds(client, warnings) : []);
  const crdIndex = crdArmIndexOf(crds);
  const plurals = new Map<string, string>(
    crds.map((crd) => [
      `${crd.spec.group}/${crd.spec.names.kind}`.toLowerCase(),
      (crd.spec.names as { plural?: string }).plural ?? '',
    ]),
  );

  let global: SecretData | undefined;
  if (client) {
    try {
      global = await readSecret(client, plan.operatorNamespace, operatorSettingsSecret);
    } catch (error) {
      if (plan.credential === 'operator' && !plan.subscription) throw error;
      warnings.push(
        `cannot read ${plan.operatorNamespace}/${operatorSettingsSecret}: operator defaults assumed`,
      );
    }
  }

  const defaultProblem = operatorDefaultProblem(
    global?.DEFAULT_RECONCILE_POLICY,
    `${plan.operatorNamespace}/${operatorSettingsSecret}`,
  );
  if (defaultProblem) warnings.push(defaultProblem);

  // The cluster's copy of each object (already managed?) and of owners the files do not hold.
  const known: ManifestObject[] = [...set.objects];
  const inCluster = new Map<ManifestObject, ManifestObject>();
  if (client) {
    await plan.mapBounded(set.objects, plan.concurrency, async (object) => {
      const found = await clusterObject(client, object, namespaceOf(object, plan.defaultNamespace), plurals);
      if (found) inCluster.set(object, found);
    });
  }

  // Owners the files do not hold, read from the cluster, and theirs in turn up to a recorded ARM ID.
  if (client) {
    const found = await readClusterOwners(
      client,
      set.objects,
      { crds, index: crdIndex, plurals },
      plan.defaultNamespace,
      plan.mapBounded,
      plan.concurrency,
    );
    known.push(...found.owners);
    warnings.push(...found.warnings);
  }

  // Credentials per (namespace, credential-from): the subscription and the reader.
  const credentials = new Map<
    string,
    { settings: CredentialSettings; where: string } | { lookedAt: string[] }
  >();
  const credentialKey = (o: ManifestObject) =>
    `${namespaceOf(o, plan.defaultNamespace)}/${o.metadata.annotations?.['serviceoperator.azure.com/credential-from'] ?? ''}`;
  if (client && plan.credential === 'operator') {
    for (const object of set.objects) {
      const key = credentialKey(object);
      if (!credentials.has(key)) {
        credentials.set(
          key,
          await credentialFor(
            client,
            namespaceOf(object, plan.defaultNamespace),
            object.metadata.annotations,
            global,
            plan.operatorNamespace,
          ),
        );
      }
    }
  }
  const settingsOf = (object: ManifestObject): CredentialSettings | undefined => {
    const found = credentials.get(credentialKey(object));
    return found && 'settings' in found ? found.settings : undefined;
  };
  if (
    plan.credential === 'operator' &&
    set.objects.length > 0 &&
    [...set.objects].every((o) => !settingsOf(o))
  ) {
    const lookedAt = [
      ...new Set([...credentials.values()].flatMap((c) => ('lookedAt' in c ? c.lookedAt : []))),
    ];
    throw new CredentialNotFound(lookedAt.length > 0 ? lookedAt : ['no cluster reachable']);
  }
  // A subscription read from a secret goes into every GET's path: one that is not a GUID is refused,
  // naming the secret, rather than sent (see arm-id-input.ts).
  if (!plan.subscription) {
    const sources = [
      ...[...credentials.values()].flatMap((c) => ('settings' in c ? [c] : [])),
      ...(global ? [{ settings: global, where: `${plan.operatorNamespace}/${operatorSettingsSecret}` }] : []),
    ];
    for (const { settings, where } of sources) {
      const subscription = settings.AZURE_SUBSCRIPTION_ID;
      if (subscription !== undefined && subscription !== '' && !isSubscriptionId(subscription))
        throw new InvalidInput(
          `secret ${where}`,
          `AZURE_SUBSCRIPTION_ID ${JSON.stringify(subscription)} is not a subscription ID (a GUID)`,
        );
    }
  }
  const subscriptionOf = (namespace: string) => {
    if (plan.subscription) return plan.subscription;
    const object = set.objects.find((o) => namespaceOf(o, plan.defaultNamespace) === namespace);
    return (object && settingsOf(object)?.AZURE_SUBSCRIPTION_ID) ?? global?.AZURE_SUBSCRIPTION_ID;
  };

  const ids = resolveArmIds(set.objects, {
    objects: known,
    crds: crdIndex,
    subscriptionOf,
    defaultNamespace: plan.defaultNamespace,
    knownIdOf: recordedArmId,
  });

  // References by name in a spec resolve as the operator resolves them: through the named object's ARM ID.
  const references = referenceLookupOf({
    given: set.objects,
    predictedIdOf: (object) => ids.get(object)?.armId,
    defaultNamespace: plan.defaultNamespace,
    client,
    crds,
    plurals,
  });

  // Policy context per namespace.
  const namespaceAnn = new Map<string, Record<string, string> | undefined>();
  for (const object of set.objects) {
    const ns = namespaceOf(object, plan.defaultNamespace);
    if (!namespaceAnn.has(ns))
      namespaceAnn.set(ns, client ? await namespaceAnnotations(client, ns) : undefined);
  }

  // One reader per credential.
  const readers = new Map<string, Promise<ArmReader>>();
  const readerFor = (object: ManifestObject): Promise<ArmReader> => {
    const key = plan.credential === 'local' ? 'local' : credentialKey(object);
    let reader = readers.get(key);
    if (!reader) {
      reader = plan.readerOf(plan.credential, {
        ...(settingsOf(object) ?? global ?? {}),
        AZURE_SUBSCRIPTION_ID: subscriptionOf(namespaceOf(object, plan.defaultNamespace)),
      });
      readers.set(key, reader);
    }
    return reader;
  };

  const given = new Set(set.objects);
  // More resources are answered at once than GETs are in flight (the reader's limiter holds those to
  // --concurrency), so a resource waiting out a Retry-After does not keep another from its GET.
  const answering = plan.concurrency * 8;
  let answered = 0;
  plan.progress?.(0, set.objects.length);
  const items = await plan.mapBounded(set.objects, answering, async (object): Promise<AdoptItem> => {
    const namespace = namespaceOf(object, plan.defaultNamespace);
    const answer = ids.get(object) as ArmIdAnswer;
    const context: PolicyContext = {
      namespaceAnnotation: namespaceAnn.get(namespace)?.['serviceoperator.azure.com/reconcile-policy'],
      operatorDefault: global?.DEFAULT_RECONCILE_POLICY,
      operatorIfExists: global?.RECONCILE_POLICY_IF_EXISTS,
    };
    const policy = effectivePolicyOf(object.metadata.annotations, context);
    const base = {
      namespace,
      kind: object.kind,
      name: object.metadata.name as string,
      armId: answer.armId ?? null,
      inferred: answer.kindArm?.source === 'inferred',
      source: answer.kindArm?.source ?? null,
      reconcilePolicy: policy.policy,
      reconcilePolicySource: policy.policySource,
      reconcilePolicyIfExists: policy.ifExists ?? null,
      changes: [],
      unmapped: [],
    };
    const managedId = inCluster.get(object)?.metadata.annotations?.[resourceIdAnnotation];
    let existence: Existence;
    let body: Record<string, unknown> | undefined;
    if (answer.armId === undefined) {
      existence = { state: 'unknown', reason: answer.unknown };
    } else if (!answer.kindArm?.apiVersion) {
      existence = { state: 'unknown', reason: `no ARM API version known for ${object.apiVersion}` };
    } else if (plan.credential === 'operator' && !settingsOf(object) && !global) {
      existence = { state: 'unknown', reason: 'no credential for this namespace' };
    } else {
      try {
        const reader = await readerFor(object);
        const lookup = await reader.get(answer.armId, answer.kindArm.apiVersion);
        if (lookup.state === 'found') body = lookup.body;
        existence = existenceOf(lookup, answer, given);
      } catch (error) {
        if (error instanceof AsoError) throw error;
        existence = { state: 'unknown', reason: `cannot tell: ${(error as Error).message.split('\n')[0]}` };
      }
    }
    const decided = outcomeOf(policy, existence, managedId);
    const item: AdoptItem = {
      ...base,
      exists: existence.state === 'exists' ? true : existence.state === 'unknown' ? null : false,
      outcome: decided.outcome,
      reason: decided.reason,
      proposed: decided.proposed,
    };
    // Under skip the operator only reads the resource (ASO v2.20.0 handleSkipReconcile): no PUT, nothing
    // changes, also for an object it already manages (drift under skip is reported, never corrected).
    const managedUnderSkip = decided.outcome === 'already-managed' && policy.policy === 'skip';
    const onlyRead = decided.outcome === 'skip-exists' || managedUnderSkip;
    // A resource the operator manages that is gone from Azure is created again by its next PUT (under skip
    // it only reads, and reports the resource missing): the what-if is then a create, every property new.
    const gone = decided.outcome === 'already-managed' && existence.state === 'missing';
    if (managedUnderSkip)
      item.reason = `${item.reason}; reconcile-policy skip: the operator only reads it, so nothing is sent${gone ? ' (the resource is missing in Azure)' : ''}`;
    else if (gone)
      item.reason = `${item.reason}; the resource is missing in Azure: the next reconcile creates it again`;
    // A resource the operator will create gets no what-if, but what its PUT needs is checked all the same:
    // a spec it cannot send, and what its extensions do in Azure first (a soft-deleted vault purged).
    const creates = decided.outcome === 'create';
    if ((body || gone || creates) && !onlyRead) {
      const resolvers = await prefetchedResolvers(
        (found) => desiredArmOf(object, found),
        references,
        namespace,
      );
      const desired = await desiredArmOf(object, resolvers);
      if ('unknown' in desired) {
        // The outcome (exists, adopted, deleted with the object) still holds; only the what-if is not known.
        if (!creates) {
          item.whatIfUnknown = desired.unknown;
          item.reason = `${item.reason}; ${desired.unknown}`;
        }
      } else {
        // What the operator's own extensions change before the PUT (a role's well-known name), read from ARM.
        const sent: ModifiedBody =
          desired.refused !== undefined
            ? { refused: desired.refused }
            : answer.armId !== undefined
              ? await operatorModifiedBody(object, desired.body, answer.armId, await readerFor(object), body)
              : { body: desired.body };
        if ('refused' in sent) {
          // The operator's reconcile fails on this spec before any PUT: nothing would change, nothing is known.
          item.outcome = 'unknown';
          item.reason = `ASO cannot send this spec to Azure: ${sent.refused}`;
          item.proposed = false;
        } else if ('unknown' in sent) {
          item.outcome = 'unknown';
          item.reason = `${item.reason}; cannot tell what ASO would send: ${sent.unknown}`;
          item.proposed = false;
        } else {
          if (sent.note !== undefined) item.reason = `${item.reason}; ${sent.note}`;
          if (!creates) {
            // Nothing of a resource being created is a change ARM could refuse as immutable.
            const wholeAt = new Set(desired.wholeAt);
            item.changes = body
              ? flagImmutable(
                  withoutWriteOnly(whatIf(sent.body, body, wholeAt), desired.writeOnlyAt),
                  desired.immutableAt,
                )
              : whatIf(sent.body, {}, wholeAt);
            item.unmapped = desired.unmapped;
          }
        }
      }
    }
    plan.progress?.(++answered, set.objects.length);
    return item;
  });
  return { items, summary: summaryOf(items, set.passedOver.length), warnings };
}
