import type { KubeClient } from '../kube/client.ts';
import type { KubeObject } from '../kube/list.ts';
import type { Backoff } from './backoff.ts';
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
    const objects: ObjectPreview[] = [];
    try {
      let token: string | undefined;
      do {
        const page: { items: KubeObject[]; continueToken: string | undefined } = await readPage(
          client,
          type,
          pageSize,
          token,
          backoff,
        );
        for (const object of page.items) objects.push(await previewObject(client, side, object, backoff));
        token = page.continueToken;
      } while (token !== undefined);
      return { objects };
    } catch (error) {
      if (!isConversionFailure(error)) throw error;
      lastFailure = error.message;
    }
  }
  return {
    objects: [],
    reason: `no preview: the API server cannot list the objects at any stored version (${lastFailure}); a run switches the conversion off first`,
  };
}
