import type { KubeClient } from '../kube/client.ts';
import { Forbidden } from '../kube/errors.ts';
import { type KubeObject, listAll } from '../kube/list.ts';

/** The namespaces of the cluster, or the {@link Forbidden} error when the user may not list them. */
export type VisibleNamespaces = string[] | Forbidden;

/**
 * Lists the cluster's namespaces at most once, and only if asked: `-A` falls back to one list per
 * namespace when a type cannot be listed cluster-wide, for users allowed into some namespaces only.
 */
export function namespaceLister(client: KubeClient): () => Promise<VisibleNamespaces> {
  let listed: Promise<VisibleNamespaces> | undefined;
  return () => {
    listed ??= listAll<KubeObject>(client, { group: '', version: 'v1', plural: 'namespaces' }).then(
      (namespaces) => namespaces.map((namespace) => namespace.metadata.name).sort(),
      (error: unknown) => {
        if (error instanceof Forbidden) return error;
        throw error;
      },
    );
    return listed;
  };
}
