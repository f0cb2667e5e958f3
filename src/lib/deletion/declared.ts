import { resourceIdAnnotation } from '../graph/build.ts';
import { type GraphWarning, objectId } from '../graph/model.ts';
import type { KubeClient } from '../kube/client.ts';
import { Forbidden, NotFound } from '../kube/errors.ts';
import { listPages } from '../kube/list.ts';
import { forEachBounded } from '../status/bounded.ts';
import { discoverAsoKinds } from '../status/kinds.ts';

/**
 * Lower-cased ARM ID -> the node id of the ASO object that declares it (its `status.id`, or the operator's
 * resource-id annotation), over every namespace: a resource in a deleted group may be declared by an
 * object anywhere in the cluster, and then it is not undeclared. A type that cannot be listed
 * cluster-wide is a warning: what its objects declare counts as undeclared, so the count errs on the side
 * of warning.
 */
export async function declaredArmIds(
  client: KubeClient,
  warnings: GraphWarning[],
): Promise<Map<string, string>> {
  const declared = new Map<string, string>();
  const kinds = await discoverAsoKinds(client);
  await forEachBounded(kinds, 8, async (kind) => {
    try {
      for await (const page of listPages(client, kind)) {
        for (const object of page) {
          const status = object.status as { id?: unknown } | undefined;
          const id =
            typeof status?.id === 'string' ? status.id : object.metadata.annotations?.[resourceIdAnnotation];
          if (id)
            declared.set(
              id.toLowerCase(),
              objectId(kind.group, kind.kind, object.metadata.namespace ?? null, object.metadata.name),
            );
        }
      }
    } catch (error) {
      if (!(error instanceof Forbidden || error instanceof NotFound)) throw error;
      warnings.push({
        subject: `${kind.plural}.${kind.group} in every namespace`,
        reason: error instanceof Forbidden ? 'Forbidden' : 'NotFound',
        message: `${error.message}: resources its objects declare are counted as undeclared`,
      });
    }
  });
  return declared;
}
