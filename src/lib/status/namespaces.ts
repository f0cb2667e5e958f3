import type { KubeClient } from '../kube/client.ts';
import { Forbidden } from '../kube/errors.ts';
import { type KubeObject, listAll } from '../kube/list.ts';
import { forEachBounded } from './bounded.ts';

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

/**
 * Reads one type with `read`: in `namespace`, or cluster-wide when it is undefined. Under `-A`, when RBAC
 * forbids the cluster-wide read of a namespaced type, reads it namespace by namespace instead (when the
 * namespaces may be listed), handing each forbidden namespace to `warn`; when the namespaces cannot be
 * listed either, `warn` gets the cluster-wide error with a message that says so. Any other error goes to
 * `warn` as it is (which rethrows what is fatal).
 */
export async function readAcrossNamespaces(options: {
  namespaced: boolean;
  namespace: string | undefined;
  namespaces: () => Promise<VisibleNamespaces>;
  concurrency: number;
  read: (namespace: string | undefined) => Promise<void>;
  warn: (namespace: string | undefined, error: unknown, message?: string) => void;
}): Promise<void> {
  const { namespace, read, warn } = options;
  try {
    await read(namespace);
    return;
  } catch (error) {
    if (!(error instanceof Forbidden && options.namespaced && namespace === undefined)) {
      warn(namespace, error);
      return;
    }
    const visible = await options.namespaces();
    if (visible instanceof Forbidden) {
      warn(
        undefined,
        error,
        `${error.message}; namespaces cannot be listed either (${visible.message}), so no namespace was tried one by one: pass -n NAMESPACE for a namespace you may read`,
      );
      return;
    }
    await forEachBounded(visible, options.concurrency, async (each) => {
      try {
        await read(each);
      } catch (inner) {
        warn(each, inner);
      }
    });
  }
}
