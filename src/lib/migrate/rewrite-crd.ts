import type { KubeClient } from '../kube/client.ts';
import { ApiError, NotFound } from '../kube/errors.ts';
import { itemsAfter, type KubeObject, storageOrderKey } from '../kube/list.ts';
import { resourceName, resourcePath } from '../kube/paths.ts';
import { type Backoff, withBackoff } from './backoff.ts';
import {
  type CheckpointStore,
  type CrdCheckpoint,
  checkpointMatches,
  emptyCounts,
  type FailedObject,
} from './checkpoint.ts';
import { ContinueExpired, type Page, readPage } from './page.ts';
import { isConversionFailure } from './plan.ts';
import type { CrdPlan } from './plan-types.ts';
import { mapConcurrently } from './pool.ts';
import { type ObjectOutcome, type ObjectWriteOptions, rewriteObject } from './rewrite-object.ts';

/** How a rewrite runs: page size, writes in flight, and how it is told to stop. */
export interface RewriteOptions {
  batchSize: number;
  concurrency: number;
  backoff: Backoff;
  /** Start over even when a checkpoint exists. */
  restart: boolean;
  /** Checked between batches: once true, the batch in flight finishes, is checkpointed, and the run stops. */
  interrupted: () => boolean;
  /** One plain line per batch and per notable event. */
  log: (line: string) => void;
  /**
   * Told after each batch how many objects are done in all (resumed counts included), how many the batch
   * held, and its line; given, the batch line goes here instead of {@link log}, so a terminal can show a
   * bar instead.
   */
  onBatch?: (done: number, batchSize: number, line: string) => void;
  /** Backups before the writes (see {@link ObjectWriteOptions}). */
  write?: ObjectWriteOptions;
}

/** Where a CRD's rewrite ended. */
export interface RewriteResult {
  /** Cumulative over the runs that share the checkpoint. */
  checkpoint: CrdCheckpoint;
  /** Every object has been visited and none failed: the CRD may be finished. */
  complete: boolean;
  interrupted: boolean;
  /** Set only when the API server could not convert a page of objects (a conversion failure): why. */
  stopped: string | undefined;
  /** Batches a previous run had completed when this one resumed (0 on a fresh start). */
  resumedAfterBatches: number;
}

/** The checkpoint a fresh rewrite of this plan starts from. */
export function freshCheckpoint(plan: CrdPlan, target: string): CrdCheckpoint {
  return {
    format: 1,
    crd: plan.name,
    target,
    crdUid: plan.uid,
    crdGeneration: plan.generation,
    continueToken: undefined,
    lastKey: undefined,
    batches: 0,
    counts: emptyCounts(),
    inFlight: undefined,
    listed: false,
    updatedAt: new Date().toISOString(),
  };
}

/**
 * Rewrites every object of one CRD at the server (see {@link rewriteObject}), page by page: `batchSize`
 * objects a page, `concurrency` writes in flight, the next page read while a batch is written, and a
 * checkpoint before each batch naming it (and carrying the counts and continue token of the batches
 * before; the last batch, a stop or an interruption saves its own), so that a run killed at any point
 * redoes at most one batch, and those redone writes are no-ops. A continue token that expired (410, e.g. when a
 * run resumes long after it stopped) is replaced by the server's fresh one, or the list starts over and
 * skips what was done by storage order. A rerun after a run that left failed objects retries just those.
 */
export async function rewriteCrd(
  client: KubeClient,
  plan: CrdPlan & { target: string },
  store: CheckpointStore,
  options: RewriteOptions,
): Promise<RewriteResult> {
  const saved = await store.load(plan.name);
  let state = freshCheckpoint(plan, plan.target);
  let resumedAfterBatches = 0;
  if (saved && !options.restart) {
    if (checkpointMatches(saved, { target: plan.target, crdUid: plan.uid, crdGeneration: plan.generation })) {
      state = { ...saved, counts: { ...saved.counts, failed: [...saved.counts.failed] } };
      resumedAfterBatches = saved.batches;
      const redo = saved.inFlight
        ? `; redoing the batch in flight (${saved.inFlight.size} objects from ${saved.inFlight.first})`
        : '';
      options.log(`${plan.name}: resuming after batch ${saved.batches} from ${store.where}${redo}`);
    } else {
      options.log(`${plan.name}: the saved state is for another target or an older CRD; starting over`);
    }
  }
  const type = { ...plan.access, kind: plan.kind };
  const save = async (): Promise<void> => {
    state.updatedAt = new Date().toISOString();
    await store.save(state);
  };
  const result = (extra: Partial<RewriteResult>): RewriteResult => ({
    checkpoint: state,
    complete: state.listed && state.counts.failed.length === 0,
    interrupted: false,
    stopped: undefined,
    resumedAfterBatches,
    ...extra,
  });

  if (state.listed && state.counts.failed.length > 0) {
    await retryFailed(client, type, state, options);
    await save();
    return result({});
  }
  // The next page is read while the current batch's writes are in flight, so that a list never waits
  // for writes or writes for a list. Its token is saved only with the checkpoint that names it as in flight.
  let ahead: Promise<PageRead> | undefined;
  // Progress of a finished batch not yet saved: the next batch's checkpoint carries it, which saves one
  // write per batch; an interruption, a stop or the last page save it instead.
  let unsaved = false;
  while (!state.listed) {
    if (options.interrupted()) {
      if (unsaved) await save();
      return result({ interrupted: true });
    }
    const read = await (ahead ?? pageRead(client, type, options, state.continueToken));
    ahead = undefined;
    if ('error' in read) {
      const { error } = read;
      if (error instanceof ContinueExpired) {
        options.log(
          `${plan.name}: the continue token expired; ${error.freshToken ? 'continuing with a fresh one' : 'listing again from the start, skipping what is done'}`,
        );
        state.continueToken = error.freshToken;
        continue;
      }
      if (isConversionFailure(error)) {
        await save();
        return result({ stopped: `the API server cannot convert a page of objects: ${error.message}` });
      }
      if (unsaved) await save().catch(() => undefined);
      throw error;
    }
    const { page } = read;
    const batch = itemsAfter(page.items, state.lastKey);
    const first = batch[0];
    const last = batch.at(-1);
    if (first && last) {
      state.inFlight = { first: storageOrderKey(first), last: storageOrderKey(last), size: batch.length };
      await save();
      unsaved = false;
      if (page.continueToken !== undefined && !options.interrupted()) {
        ahead = pageRead(client, type, options, page.continueToken);
      }
      const outcomes = await mapConcurrently(batch, options.concurrency, (object) =>
        rewriteObject(client, type, object, options.backoff, options.write),
      ).catch(async (error: unknown) => {
        // A write that throws stops the run; the read-ahead must not outlive it unobserved.
        await ahead;
        throw error;
      });
      const added = tally(state, batch, outcomes);
      state.lastKey = storageOrderKey(last);
      state.batches++;
      const line = `${plan.name}: batch ${state.batches}: ${batch.length} ${batch.length === 1 ? 'object' : 'objects'}: ${added.migrated} migrated, ${added.alreadyCurrent} already current, ${added.deleted} deleted, ${added.failed} failed`;
      if (options.onBatch) options.onBatch(doneCount(state), batch.length, line);
      else options.log(line);
      unsaved = true;
    }
    state.inFlight = undefined;
    state.continueToken = page.continueToken;
    state.listed = page.continueToken === undefined;
    if (state.listed || (unsaved && ahead === undefined)) {
      await save();
      unsaved = false;
    }
  }
  return result({});
}

/** A page read, or why it failed: settled, so a read-ahead never rejects unobserved. */
type PageRead = { page: Page } | { error: unknown };

function pageRead(
  client: KubeClient,
  type: CrdPlan['access'],
  options: RewriteOptions,
  continueToken: string | undefined,
): Promise<PageRead> {
  return readPage(client, type, options.batchSize, continueToken, options.backoff).then(
    (page) => ({ page }),
    (error: unknown) => ({ error }),
  );
}

/** Objects done in all, whatever their outcome. */
function doneCount(state: CrdCheckpoint): number {
  const { counts } = state;
  return counts.migrated + counts.alreadyCurrent + counts.deleted + counts.failed.length;
}

/** Adds a batch's outcomes to the counts and returns what it added. */
function tally(
  state: CrdCheckpoint,
  batch: KubeObject[],
  outcomes: ObjectOutcome[],
): { migrated: number; alreadyCurrent: number; deleted: number; failed: number } {
  const added = { migrated: 0, alreadyCurrent: 0, deleted: 0, failed: 0 };
  outcomes.forEach((outcome, index) => {
    const object = batch[index] as KubeObject;
    if (outcome.result === 'failed') {
      added.failed++;
      state.counts.failed.push(failedObject(object, outcome.reason));
    } else {
      added[outcome.result]++;
      state.counts[outcome.result]++;
    }
  });
  return added;
}

function failedObject(object: KubeObject, reason: string): FailedObject {
  return { namespace: object.metadata.namespace ?? '', name: object.metadata.name, reason };
}

/** Reads each object a previous run could not migrate and tries it again; what still fails stays listed. */
async function retryFailed(
  client: KubeClient,
  type: CrdPlan['access'] & { kind: string },
  state: CrdCheckpoint,
  options: RewriteOptions,
): Promise<void> {
  const previous = state.counts.failed;
  state.counts.failed = [];
  const outcomes = await mapConcurrently(previous, options.concurrency, async (failed) => {
    const namespace = failed.namespace || undefined;
    const subject = { verb: 'get', resource: `${resourceName(type)}/${failed.name}`, namespace };
    let object: KubeObject;
    try {
      object = await withBackoff(
        () => client.request<KubeObject>({ path: resourcePath(type, namespace, failed.name), subject }),
        options.backoff,
      );
    } catch (error) {
      if (error instanceof NotFound) return { outcome: { result: 'deleted' } as ObjectOutcome, failed };
      if (!(error instanceof ApiError)) throw error;
      return { outcome: { result: 'failed', reason: error.message } as ObjectOutcome, failed };
    }
    return { outcome: await rewriteObject(client, type, object, options.backoff, options.write), failed };
  });
  for (const { outcome, failed } of outcomes) {
    if (outcome.result === 'failed') state.counts.failed.push({ ...failed, reason: outcome.reason });
    else state.counts[outcome.result]++;
  }
  options.log(
    `${state.crd}: retried ${previous.length} objects that had failed; ${state.counts.failed.length} still fail`,
  );
}
