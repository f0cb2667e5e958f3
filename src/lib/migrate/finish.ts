import { AsoError } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { Conflict } from '../kube/errors.ts';
import { resourcePath } from '../kube/paths.ts';
import { withBackoff } from './backoff.ts';
import { type Crd, crdType, readCrd, storageVersionOf } from './crds.ts';

/** What finishing a CRD found: the versions after, or why `storedVersions` was left alone. */
export type FinishOutcome =
  | { finished: true; storedVersions: string[] }
  | { finished: false; reason: string; storedVersions: string[] };

/** The read-back after the patch did not hold only the target: something else wrote the CRD's status. */
export class StoredVersionsNotCleaned extends AsoError {
  constructor(crd: string, found: string[]) {
    super('internal', `${crd}: status.storedVersions reads back as [${found.join(', ')}] after the patch`);
  }
}

/**
 * Sets `status.storedVersions` to the target alone, once every object has been verified at the target.
 *
 * Why a successful update is verification: the API server encodes every write at the storage version it
 * holds for the CRD at that moment, and skips the etcd write only when the encoding equals the stored
 * bytes, which includes the apiVersion. So after a 2xx update, whether it wrote or was a no-op, the
 * object is stored at the storage version current when it was handled; objects created during the run
 * are written at it too. The run updates (or finds deleted) every object that existed when it started,
 * and it checks here that the CRD is the one it planned against (same uid and generation: the storage
 * flag lives in the spec, so moving it bumps the generation) and that the storage version is still the
 * target. Only then is it safe to drop the other versions. The patch carries the resourceVersion read for
 * that check, so a CRD changed in between is read and checked again rather than overwritten.
 */
export async function finishCrd(
  client: KubeClient,
  planned: { name: string; uid: string; generation: number; target: string },
): Promise<FinishOutcome> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const crd = await withBackoff(() => readCrd(client, planned.name));
    const stored = crd.status?.storedVersions ?? [];
    const changed = changeSince(crd, planned);
    if (changed) return { finished: false, reason: changed, storedVersions: stored };
    if (stored.length === 1 && stored[0] === planned.target)
      return { finished: true, storedVersions: stored };
    try {
      await withBackoff(() =>
        client.request<Crd>({
          method: 'PATCH',
          path: resourcePath(crdType, undefined, planned.name, 'status'),
          contentType: 'application/merge-patch+json',
          body: {
            metadata: { resourceVersion: crd.metadata.resourceVersion },
            status: { storedVersions: [planned.target] },
          },
          subject: { verb: 'patch', resource: `customresourcedefinitions/${planned.name}/status` },
        }),
      );
    } catch (error) {
      if (error instanceof Conflict) continue;
      throw error;
    }
    const after = (await withBackoff(() => readCrd(client, planned.name))).status?.storedVersions ?? [];
    if (after.length !== 1 || after[0] !== planned.target)
      throw new StoredVersionsNotCleaned(planned.name, after);
    return { finished: true, storedVersions: after };
  }
  throw new Conflict(
    `customresourcedefinitions/${planned.name}/status`,
    'changed by someone else five times in a row',
  );
}

/** Why the CRD is no longer the one the rewrite was verified against, or undefined when it is. */
function changeSince(
  crd: Crd,
  planned: { uid: string; generation: number; target: string },
): string | undefined {
  if ((crd.metadata.uid ?? '') !== planned.uid)
    return 'the CRD was deleted and created again during the run; rerun';
  if ((crd.metadata.generation ?? 0) !== planned.generation) {
    return 'the CRD changed during the run (its generation moved), so the objects may not all be at its storage version; rerun';
  }
  const storage = storageVersionOf(crd);
  if (storage !== planned.target)
    return `the storage version is now ${storage}, not ${planned.target}; rerun`;
  return undefined;
}
