import type { KubeClient } from '../kube/client.ts';
import { Forbidden, NotFound } from '../kube/errors.ts';
import { type KubeObject, listAll, listPages, metadataOnly } from '../kube/list.ts';
import { crdType } from '../migrate/crds.ts';
import { forEachBounded } from '../status/bounded.ts';
import { type AsoKind, discoverAsoKinds, isAsoGroup } from '../status/kinds.ts';
import { buildGraph, type NamesByNamespace, type ObjectOfKind } from './build.ts';
import type { Graph, GraphWarning } from './model.ts';
import { type ReferencePath, referencePathsOf, type SchemaNode } from './schema-references.ts';

/** Which namespaces the graph covers: one or more by name, or every namespace. */
export type GraphScope = { namespaces: string[] } | { allNamespaces: true };

interface CrdSchemas extends KubeObject {
  spec: {
    group: string;
    names: { kind: string };
    versions: Array<{ name: string; schema?: { openAPIV3Schema?: SchemaNode } }>;
  };
}

const listConcurrency = 8;
/** Asks for object metadata only: secrets are looked for by name, and their data never leaves the server. */

function warningOf(subject: string, error: unknown): GraphWarning {
  if (error instanceof Forbidden || error instanceof NotFound) {
    return { subject, reason: error instanceof Forbidden ? 'Forbidden' : 'NotFound', message: error.message };
  }
  throw error;
}

/**
 * `group/Kind` -> the reference paths of the version discovery serves it at, from the cluster's CRDs. Read
 * once per run: the paths are a property of the type, not of each object.
 */
export async function referencePathsByKind(
  client: KubeClient,
  kinds: readonly AsoKind[],
  warnings: GraphWarning[],
): Promise<Map<string, ReferencePath[]>> {
  const byKind = new Map<string, ReferencePath[]>();
  let crds: CrdSchemas[];
  try {
    crds = await listAll<CrdSchemas>(client, crdType);
  } catch (error) {
    warnings.push({
      ...warningOf('customresourcedefinitions', error),
      message: `${(error as Error).message}: references other than spec.owner cannot be found without the CRDs' schemas`,
    });
    return byKind;
  }
  const served = new Map(kinds.map((kind) => [`${kind.group}/${kind.kind}`, kind.version]));
  for (const crd of crds) {
    if (!isAsoGroup(crd.spec.group)) continue;
    const key = `${crd.spec.group}/${crd.spec.names.kind}`;
    const version = crd.spec.versions.find((v) => v.name === served.get(key)) ?? crd.spec.versions[0];
    byKind.set(key, referencePathsOf(version?.schema?.openAPIV3Schema?.properties?.spec));
  }
  return byKind;
}

/** Without the CRDs, `spec.owner` is still an owner: the one reference every ASO kind has at the same place. */
const ownerOnly: ReferencePath[] = [{ path: ['owner'], role: 'owner' }];

async function namesIn(
  client: KubeClient,
  plural: 'secrets' | 'configmaps',
  scope: GraphScope,
  warnings: GraphWarning[],
): Promise<NamesByNamespace> {
  const names: NamesByNamespace = new Map();
  const read = async (namespace: string | undefined): Promise<void> => {
    try {
      for await (const page of listPages(client, {
        group: '',
        version: 'v1',
        plural,
        namespace,
        accept: metadataOnly,
      })) {
        for (const item of page) {
          const ns = item.metadata.namespace ?? '';
          const set = names.get(ns);
          if (set instanceof Set) set.add(item.metadata.name);
          else names.set(ns, new Set([item.metadata.name]));
        }
      }
      if (namespace !== undefined && !names.has(namespace)) names.set(namespace, new Set());
    } catch (error) {
      const where = namespace === undefined ? 'in any namespace' : `in namespace ${namespace}`;
      const warning = warningOf(`${plural} ${where}`, error);
      warnings.push({
        ...warning,
        message: `${warning.message}: ${plural} named by objects are marked unknown`,
      });
      if (namespace !== undefined) names.set(namespace, 'forbidden');
    }
  };
  if ('allNamespaces' in scope) await read(undefined);
  else for (const namespace of scope.namespaces) await read(namespace);
  return names;
}

/**
 * Reads the graph of the ASO objects in scope from the cluster: the ASO types by discovery, their reference
 * paths from the CRDs, every object of every type, and the names (metadata only) of the secrets and config
 * maps, to tell a missing one from a present one. What cannot be read (RBAC) becomes a warning and the
 * nodes it concerns `unknown`; the graph is still drawn.
 */
export async function collectGraph(client: KubeClient, scope: GraphScope): Promise<Graph> {
  const warnings: GraphWarning[] = [];
  const kinds = await discoverAsoKinds(client);
  const paths = await referencePathsByKind(client, kinds, warnings);
  const objects: ObjectOfKind[] = [];
  const namespaces: Array<string | undefined> = 'allNamespaces' in scope ? [undefined] : scope.namespaces;
  const work = kinds.flatMap((kind) =>
    kind.namespaced ? namespaces.map((namespace) => ({ kind, namespace })) : [{ kind, namespace: undefined }],
  );
  await forEachBounded(work, listConcurrency, async ({ kind, namespace }) => {
    const kindPaths = paths.get(`${kind.group}/${kind.kind}`) ?? ownerOnly;
    try {
      for await (const page of listPages(client, { ...kind, namespace })) {
        for (const object of page)
          objects.push({ kind: kind.kind, group: kind.group, object, paths: kindPaths });
      }
    } catch (error) {
      const where = namespace === undefined ? '' : ` in namespace ${namespace}`;
      warnings.push(warningOf(`${kind.plural}.${kind.group}${where}`, error));
    }
  });
  const [secrets, configMaps] = [
    await namesIn(client, 'secrets', scope, warnings),
    await namesIn(client, 'configmaps', scope, warnings),
  ];
  warnings.sort((a, b) => a.subject.localeCompare(b.subject));
  return buildGraph({ objects, secrets, configMaps, warnings });
}
