import type { KubeClient } from '../kube/client.ts';
import { ApiError, Conflict, NotFound } from '../kube/errors.ts';
import type { KubeObject } from '../kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../kube/paths.ts';
import { type Backoff, defaultBackoff, withBackoff } from './backoff.ts';

/** What rewriting one object came to. */
export type ObjectOutcome =
  | { result: 'migrated' }
  | { result: 'alreadyCurrent' }
  | { result: 'deleted' }
  | { result: 'failed'; reason: string };

/**
 * What happens around the writes: `beforeFirstWrite` sees each object as read, before the first write of
 * it (`--backup-dir`); a throw from it stops the run before that object is written. `dryRun` sends each
 * write with the API server's `dryRun=All` (`--dry-run=server`): converted, validated and admitted, never
 * stored.
 */
export interface ObjectWriteOptions {
  beforeFirstWrite?: (object: KubeObject) => Promise<void>;
  dryRun?: boolean;
  /**
   * Makes the body of each write from the object as read (again after a conflict): the client-side path
   * converts it here. Without it the object is written unchanged, relabelled at the version written.
   */
  prepare?: WritePreparer;
}

/** A write to send, and the object as it was before (what a backup keeps). */
export interface PreparedWrite {
  body: KubeObject;
  original: KubeObject;
}

/**
 * Turns the object as read into the write to send, or says why this object cannot be written. It may throw
 * `Conflict` (the object changed while it was read: read it again) or `NotFound` (deleted).
 */
export type WritePreparer = (current: KubeObject) => Promise<PreparedWrite | { failed: string }>;

/** How many times a conflicting write is re-read and tried again before the object is reported failed. */
const maxConflicts = 10;

/**
 * Rewrites one object unchanged, so that the API server stores it at the current storage version: an
 * update carrying the object's resourceVersion (optimistic concurrency: a concurrent change is never
 * overwritten; on 409 the object is read again and the fresh copy written). The API server skips the
 * etcd write when the encoded object equals what is stored, so an unchanged resourceVersion in the answer
 * means the object was already at the storage version, and a new one that it was rewritten. A failure
 * that concerns the object alone (invalid at the new version, a conversion that fails for it, retries
 * exhausted) is returned; one that concerns the whole run (forbidden, unauthorized) is thrown.
 */
export async function rewriteObject(
  client: KubeClient,
  type: ResourceType & { kind: string },
  listed: KubeObject,
  backoff: Backoff = defaultBackoff,
  write: ObjectWriteOptions = {},
): Promise<ObjectOutcome> {
  const namespace = listed.metadata.namespace;
  const name = listed.metadata.name;
  const path = resourcePath(type, namespace, name);
  const resource = `${resourceName(type)}/${name}`;
  let current = listed;
  let backedUp = false;
  for (let conflicts = 0; ; ) {
    try {
      const prepared = write.prepare
        ? await write.prepare(current)
        : {
            body: { ...current, apiVersion: `${type.group}/${type.version}`, kind: type.kind },
            original: current,
          };
      if ('failed' in prepared) return { result: 'failed', reason: prepared.failed };
      if (!backedUp) {
        await write.beforeFirstWrite?.(prepared.original);
        backedUp = true;
      }
      const body = prepared.body;
      const written = await withBackoff(
        () =>
          client.request<KubeObject>({
            method: 'PUT',
            path,
            ...(write.dryRun ? { query: { dryRun: 'All' } } : {}),
            body,
            subject: { verb: 'update', resource, namespace },
          }),
        backoff,
      );
      // A dry run's answer never carries a new resourceVersion: that the write was accepted is all it says.
      if (write.dryRun) return { result: 'migrated' };
      return written.metadata.resourceVersion === current.metadata.resourceVersion
        ? { result: 'alreadyCurrent' }
        : { result: 'migrated' };
    } catch (error) {
      if (error instanceof NotFound) return { result: 'deleted' };
      if (error instanceof Conflict) {
        // A 409 also answers a retried write whose first attempt did land: the re-read then finds the
        // object at the storage version and the next write is a no-op.
        if (++conflicts > maxConflicts)
          return { result: 'failed', reason: `still conflicting after ${maxConflicts} re-reads` };
        try {
          current = await withBackoff(
            () => client.request<KubeObject>({ path, subject: { verb: 'get', resource, namespace } }),
            backoff,
          );
        } catch (readError) {
          if (readError instanceof NotFound) return { result: 'deleted' };
          const failed = objectFailure(readError);
          if (failed) return failed;
          throw readError;
        }
        continue;
      }
      const failed = objectFailure(error);
      if (failed) return failed;
      throw error;
    }
  }
}

/**
 * A failure that concerns one object only (the run goes on without it), or undefined. A cluster still
 * unreachable after the backoff is not one: the run stops, resumable, rather than fail every object.
 */
function objectFailure(error: unknown): ObjectOutcome | undefined {
  if (error instanceof ApiError) return { result: 'failed', reason: error.message };
  return undefined;
}
