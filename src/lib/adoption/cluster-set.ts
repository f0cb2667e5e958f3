import { convert } from '../conversion/convert.ts';
import { AsoError, UsageError } from '../errors.ts';
import { AmbiguousKind, ObjectNotFound } from '../graph/errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { type KubeObject, listAll, listPages } from '../kube/list.ts';
import type { ManifestObject, ManifestSet } from '../manifests/read.ts';
import { forEachBounded } from '../status/bounded.ts';
import { type AsoKind, isAsoGroup, kindMatches } from '../status/kinds.ts';

/** Which objects of the cluster `adopt-check --from-cluster` plans for. */
export interface ClusterSelection {
  /** The namespace looked in; ignored with `allNamespaces`. */
  namespace: string;
  allNamespaces: boolean;
  labelSelector?: string | undefined;
  /** `KIND/NAME` arguments (kind, plural, singular or short name, optionally `.group`); none means every kind. */
  objects: readonly string[];
  /** Lists in flight at once. */
  concurrency: number;
}

/** An ASO CRD as far as reading its objects needs it. */
export interface AsoCrd {
  spec: {
    group: string;
    names: { kind: string; plural: string; singular?: string; shortNames?: string[] };
    scope?: string;
    versions: Array<{
      name: string;
      served?: boolean;
      storage?: boolean;
      schema?: { openAPIV3Schema?: { description?: string } };
    }>;
  };
}

/** A `KIND/NAME` argument of `--from-cluster` whose kind no installed ASO CRD names. */
export class UnknownAsoKind extends AsoError {
  constructor(argument: string) {
    super(
      'usage',
      `${argument}: no installed ASO CRD (group *.azure.com) has that kind, plural or short name`,
      'name the kind as `kubectl api-resources` lists it, e.g. ResourceGroup/my-rg or resourcegroups.resources.azure.com/my-rg',
    );
  }
}

/** The objects read, each at the version it was applied at, and what could not be read that way. */
export interface ClusterAdoptSet {
  set: ManifestSet;
  warnings: string[];
  /** The ASO CRDs listed on the way, which the run needs too (a real install's are tens of MB). */
  crds: AsoCrd[];
}

/**
 * The ASO objects already in the cluster, as adopt-check plans for files: each read at its CRD's storage
 * version and converted by the conversion core to the version it was applied at (`spec.originalVersion`),
 * which is the version whose ARM body the operator builds on its next reconcile. An object whose version
 * the core cannot reach is kept out with a warning naming it, rather than planned from the wrong shape.
 * Lists and GETs only.
 */
export async function clusterAdoptSet(
  client: KubeClient,
  selection: ClusterSelection,
): Promise<ClusterAdoptSet> {
  const crds = (
    await listAll<KubeObject & AsoCrd>(client, {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
    })
  ).filter((crd) => isAsoGroup(crd.spec.group));
  const wanted = namedObjects(selection.objects, crds);
  const kinds = wanted ? [...new Set(wanted.map((w) => w.crd))] : crds;
  const warnings: string[] = [];
  const found = new Map<AsoCrd, KubeObject[]>();
  await forEachBounded(kinds, selection.concurrency, async (crd) => {
    const storage = crd.spec.versions.find((v) => v.storage)?.name;
    if (!storage) return;
    const namespaced = crd.spec.scope !== 'Cluster';
    const items: KubeObject[] = [];
    for await (const page of listPages(client, {
      group: crd.spec.group,
      version: storage,
      plural: crd.spec.names.plural,
      namespace: namespaced && !selection.allNamespaces ? selection.namespace : undefined,
      labelSelector: selection.labelSelector,
    }))
      items.push(...page);
    found.set(crd, items);
  });
  const where = selection.allNamespaces ? 'any namespace' : `namespace ${selection.namespace}`;
  const objects: ManifestObject[] = [];
  for (const crd of kinds) {
    const items = found.get(crd) ?? [];
    const names = wanted?.filter((w) => w.crd === crd).map((w) => w.name);
    for (const name of names ?? []) {
      if (!items.some((item) => item.metadata.name === name))
        throw new ObjectNotFound(crd.spec.names.kind, name, where);
    }
    for (const item of items) {
      if (names && !names.includes(item.metadata.name)) continue;
      const read = appliedVersionOf(item, crd);
      if ('problem' in read) warnings.push(read.problem);
      else objects.push(read.object);
    }
  }
  objects.sort((a, b) => a.source.localeCompare(b.source));
  return { set: { objects, passedOver: [] }, warnings, crds };
}

function namedObjects(
  args: readonly string[],
  crds: readonly AsoCrd[],
): Array<{ crd: AsoCrd; name: string }> | undefined {
  if (args.length === 0) return undefined;
  return args.map((arg) => {
    const slash = arg.indexOf('/');
    if (slash <= 0 || slash === arg.length - 1) throw new UsageError(`${arg}: give KIND/NAME`);
    const [pattern, name] = [arg.slice(0, slash), arg.slice(slash + 1)];
    // The same names `status --kind` takes: kind, plural, singular or short name, optionally `.group`.
    const matching = crds.filter((crd) => kindMatches(asoKindOf(crd), pattern));
    if (matching.length === 0) throw new UnknownAsoKind(arg);
    if (matching.length > 1)
      throw new AmbiguousKind(
        pattern,
        name,
        matching.map((crd) => `${crd.spec.names.plural}.${crd.spec.group}`),
      );
    return { crd: matching[0] as AsoCrd, name };
  });
}

/** A CRD as the resource type discovery would list (what {@link kindMatches} reads). */
function asoKindOf(crd: AsoCrd): AsoKind {
  const { group, names, scope, versions } = crd.spec;
  return {
    group,
    version: versions.find((v) => v.storage)?.name ?? '',
    plural: names.plural,
    kind: names.kind,
    singular: names.singular ?? '',
    shortNames: names.shortNames ?? [],
    namespaced: scope !== 'Cluster',
    verbs: [],
  };
}

/** The version the operator builds the ARM body from: the one the object was applied at. */
function appliedVersionOf(item: KubeObject, crd: AsoCrd): { object: ManifestObject } | { problem: string } {
  const { group, names } = crd.spec;
  const label = `${item.metadata.namespace ? `${item.metadata.namespace}/` : ''}${names.kind}/${item.metadata.name}`;
  const spec = item.spec as Record<string, unknown> | undefined;
  const original = typeof spec?.originalVersion === 'string' ? spec.originalVersion : undefined;
  const storage = item.apiVersion?.split('/')[1] ?? '';
  // Without a webhook that records it (objects written at the storage version), the API version the
  // storage version was made from is the closest the operator's own choice.
  const target = original ?? storage.replace(/storage$/, '');
  const served = crd.spec.versions.some((v) => v.name === target);
  if (!served)
    return { problem: `${label}: applied at ${group}/${target}, which its CRD does not serve; not planned` };
  let converted: { spec?: unknown };
  try {
    converted = convert({ ...item, apiVersion: `${group}/${storage}`, kind: names.kind }, target);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { problem: `${label}: cannot convert from ${storage} to ${target} (${reason}); not planned` };
  }
  const { name, namespace, labels, annotations } = item.metadata;
  return {
    object: {
      apiVersion: `${group}/${target}`,
      kind: names.kind,
      metadata: {
        name,
        ...(namespace ? { namespace } : {}),
        ...(labels ? { labels } : {}),
        ...(annotations ? { annotations } : {}),
      },
      ...(converted.spec ? { spec: converted.spec as Record<string, unknown> } : {}),
      source: `cluster:${label}`,
    },
  };
}
