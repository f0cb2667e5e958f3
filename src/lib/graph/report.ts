import { maxOwnerDepth } from '../adoption/cluster-owners.ts';
import type { KubeClient } from '../kube/client.ts';
import { readManifests } from '../manifests/read.ts';
import { discoverAsoKinds } from '../status/kinds.ts';
import { collectGraph } from './collect.ts';
import { ObjectNotFound } from './errors.ts';
import { type Graph, objectId } from './model.ts';
import { asoKindsNamed, objectIn, parseObjectName } from './target.ts';
import { ownerChain, ownershipOf } from './tree.ts';

/** What `tree` (and the commands built on the graph) print with `-o json|yaml`: the graph and the named objects. */
export interface GraphReport extends Graph {
  /** The ids of the objects named by KIND/NAME or -f, empty for -n/-A (every object in scope). */
  targets: string[];
}

/** What the graph is drawn for: named objects in one namespace, the objects of files, or whole namespaces. */
export type GraphRequest =
  | { objects: string[]; namespace: string }
  | { files: string[]; recursive: boolean; namespace: string }
  | { namespace: string }
  | { allNamespaces: true };

/** The deepest owner chain followed, the same bound adopt-check reads owners to. */
export const ownerDepthLimit = maxOwnerDepth;

/**
 * Reads the graph a request needs and names its targets. Named objects are resolved as kubectl resolves
 * `KIND/NAME` (bad kind, no object, more than one: typed errors); objects of `-f` files are looked up by
 * their group, kind, namespace and name, each not in the cluster a warning. Every target's owner chain
 * is checked against {@link ownerDepthLimit}.
 */
export async function graphFor(client: KubeClient, request: GraphRequest): Promise<GraphReport> {
  if ('allNamespaces' in request) return { ...(await collectGraph(client, request)), targets: [] };
  if (!('objects' in request) && !('files' in request)) {
    return { ...(await collectGraph(client, { namespaces: [request.namespace] })), targets: [] };
  }
  if ('objects' in request) {
    const names = request.objects.map(parseObjectName);
    const kinds = await discoverAsoKinds(client);
    const named = await Promise.all(
      names.map(async (name) => ({ name, kinds: await asoKindsNamed(client, kinds, name.kind) })),
    );
    const graph = await collectGraph(client, { namespaces: [request.namespace] });
    const targets = named.map(({ name, kinds: matching }) =>
      objectIn(graph, matching, name, request.namespace),
    );
    return checked({ ...graph, targets });
  }
  const set = readManifests({ files: request.files, recursive: request.recursive });
  const wanted = set.objects.map((object) => ({
    object,
    namespace: object.metadata.namespace ?? request.namespace,
  }));
  const namespaces = [...new Set(wanted.map((entry) => entry.namespace))].sort();
  const graph = await collectGraph(client, { namespaces });
  const present = new Set(graph.nodes.filter((node) => node.presence === 'present').map((node) => node.id));
  const targets: string[] = [];
  for (const { object, namespace } of wanted) {
    const group = object.apiVersion.split('/')[0] ?? '';
    const id = objectId(group, object.kind, namespace, object.metadata.name ?? '');
    if (present.has(id)) targets.push(id);
    else {
      graph.warnings.push({
        subject: `${object.kind}/${object.metadata.name ?? ''} (${object.source})`,
        reason: 'NotFound',
        message: `${object.kind}/${object.metadata.name ?? ''} from ${object.source} is not in namespace ${namespace}`,
      });
    }
  }
  if (targets.length === 0) {
    throw new ObjectNotFound(
      'objects of',
      request.files.join(', '),
      `namespace(s) ${namespaces.join(', ') || request.namespace}`,
    );
  }
  return checked({ ...graph, targets: [...new Set(targets)] });
}

function checked(report: GraphReport): GraphReport {
  const ownership = ownershipOf(report);
  for (const target of report.targets) ownerChain(ownership, target, ownerDepthLimit);
  return report;
}
