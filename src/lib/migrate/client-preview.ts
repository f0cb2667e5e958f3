import type { KubeClient } from '../kube/client.ts';
import type { KubeObject } from '../kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../kube/paths.ts';
import { type Backoff, withBackoff } from './backoff.ts';
import { type ClientSide, type ObjectPreview, previewObject } from './client-convert.ts';
import { readPage } from './page.ts';
import { isConversionFailure } from './plan.ts';
import type { CrdPlan } from './plan-types.ts';

/** The client-side side of a plan: where its objects are read and written. */
export function clientSideOf(plan: CrdPlan & { target: string }): ClientSide {
  return {
    group: plan.access.group,
    kind: plan.kind,
    plural: plan.access.plural,
    target: plan.target,
    candidates: plan.storedVersions.includes(plan.target)
      ? plan.storedVersions
      : [...plan.storedVersions, plan.target],
  };
}

/**
 * What `--dry-run` shows of a client-side CRD: per object, the versions it may be stored at and what the
 * generated conversion would put in `$propertyBag`. A dry run cannot switch the conversion off, so it
 * lists at the first version whose list the API server can answer whole (a list fails whole when one
 * object cannot be converted) and reads each object by name at every stored version, keeping the reads
 * that need no conversion the API server cannot do: with the webhook down or refusing, exactly the
 * version it is stored at. Nothing is written.
 *
 * A consistent list goes to etcd, and converts every object, whenever the API server's watch cache is not
 * fresh enough within a few seconds (a loaded server); the cache itself holds the objects converted when
 * the webhook last could. So where the consistent list fails, one list at `resourceVersion=0`, which the
 * cache answers as it stands, is tried before the next version: a preview may lag the newest writes by
 * moments, which a dry run can afford.
 */
export async function previewClientSide(
  client: KubeClient,
  plan: CrdPlan & { target: string },
  pageSize: number,
  backoff: Backoff,
): Promise<{ objects: ObjectPreview[]; reason?: string }> {
  const side = clientSideOf(plan);
  const versions = [...new Set([plan.access.version, ...side.candidates])];
  let lastFailure = '';
  for (const version of versions) {
    const type = { ...plan.access, version };
    const reads = [
      () => consistentList(client, type, pageSize, backoff),
      () => cachedList(client, type, backoff),
    ];
    for (const read of reads) {
      try {
        const objects: ObjectPreview[] = [];
        for await (const object of read()) {
          objects.push(await previewObject(client, side, object, backoff));
        }
        return { objects };
      } catch (error) {
        if (!isConversionFailure(error)) throw error;
        lastFailure = error.message;
      }
    }
  }
  return {
    objects: [],
    reason: `no preview: the API server cannot list the objects at any stored version (${lastFailure}); a run switches the conversion off first`,
  };
}

/** Every object at one version, page by page, as of now. */
async function* consistentList(
  client: KubeClient,
  type: ResourceType,
  pageSize: number,
  backoff: Backoff,
): AsyncGenerator<KubeObject> {
  let token: string | undefined;
  do {
    const page = await readPage(client, type, pageSize, token, backoff);
    yield* page.items;
    token = page.continueToken;
  } while (token !== undefined);
}

/**
 * Every object at one version as the watch cache holds it, in one answer: a cache list takes no continue
 * token that etcd would not then have to answer, so it is not paged.
 */
async function* cachedList(
  client: KubeClient,
  type: ResourceType,
  backoff: Backoff,
): AsyncGenerator<KubeObject> {
  const list = await withBackoff(
    () =>
      client.request<{ items?: KubeObject[] }>({
        path: resourcePath(type),
        query: { resourceVersion: '0' },
        subject: { verb: 'list', resource: resourceName(type) },
      }),
    backoff,
  );
  yield* list.items ?? [];
}
