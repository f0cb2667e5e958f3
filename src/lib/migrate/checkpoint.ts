import type { RecordedConversion } from './conversion-switch.ts';

/** An object the rewrite could not migrate, and why (as the JSON report shows it). */
export interface FailedObject {
  namespace: string;
  name: string;
  reason: string;
}

/** What a CRD's rewrite has counted so far. */
export interface RewriteCounts {
  /** Rewritten: the update changed the stored bytes (the object was at an old version). */
  migrated: number;
  /** The update was a no-op: the object was already stored at the target. */
  alreadyCurrent: number;
  /** Gone before it could be rewritten (404): nothing left to migrate. */
  deleted: number;
  failed: FailedObject[];
}

/** The zero counts a CRD starts from. */
export function emptyCounts(): RewriteCounts {
  return { migrated: 0, alreadyCurrent: 0, deleted: 0, failed: [] };
}

/**
 * The progress of one CRD's rewrite, saved after every batch (and before it, naming the batch in flight),
 * so that a run killed at any instant resumes where it was and redoes at most that batch. The CRD's uid and
 * generation are kept because the finish rule relies on every update having happened while the target was
 * the storage version: if the CRD changed, the saved progress proves nothing and the rewrite starts over.
 */
export interface CrdCheckpoint {
  /** The format of this record, so an older plugin's record is not misread. */
  format: 1;
  crd: string;
  target: string;
  crdUid: string;
  crdGeneration: number;
  /** The continue token of the next page; undefined for the first page. */
  continueToken: string | undefined;
  /** The storage-order key (`namespace/name`) of the last object done, to skip it after a relist. */
  lastKey: string | undefined;
  /** Batches completed. */
  batches: number;
  counts: RewriteCounts;
  /** The batch being written when this was saved: first and last keys and its size. */
  inFlight: { first: string; last: string; size: number } | undefined;
  /** Every object has been visited: the listing ended. */
  listed: boolean;
  updatedAt: string;
  /**
   * Set while a client-side rewrite has the CRD's conversion switched off: what the CRD had before. Saved
   * before the switch, beside the same record on the CRD itself (see `conversion-switch.ts`).
   */
  switched?: RecordedConversion;
}

/**
 * Where checkpoints live: a ConfigMap per CRD in the cluster (`--state-namespace`), or one local file
 * (`--state-file`). `save` is a compare-and-swap against what this run last loaded or saved, so that two
 * runs over the same CRD cannot both advance it.
 */
export interface CheckpointStore {
  /** Where the state is, for messages. */
  readonly where: string;
  load(crd: string): Promise<CrdCheckpoint | undefined>;
  save(checkpoint: CrdCheckpoint): Promise<void>;
  /** Removes a CRD's state once it is finished: nothing is left behind. */
  clear(crd: string): Promise<void>;
}

/** Whether a saved checkpoint still describes this CRD at this target (else the rewrite starts over). */
export function checkpointMatches(
  checkpoint: CrdCheckpoint,
  expected: { target: string; crdUid: string; crdGeneration: number },
): boolean {
  return (
    checkpoint.format === 1 &&
    checkpoint.target === expected.target &&
    checkpoint.crdUid === expected.crdUid &&
    checkpoint.crdGeneration === expected.crdGeneration
  );
}
