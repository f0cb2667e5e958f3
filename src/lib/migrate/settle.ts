import type { Crd } from './crds.ts';

/**
 * How long after a CRD's spec last changed its objects may be rewritten. An API server applies a CRD
 * change (a new storage version) a moment after the write returns, and each API server of a cluster on
 * its own; an object rewritten by a server that has not yet applied it would be stored at the old version
 * while the run counts it verified. Seconds are plenty for that; it costs nothing once an upgrade is older.
 */
export const settleMs = 5_000;

/** When the CRD's spec was last written, from its managedFields (the API server's clock); undefined if unknown. */
export function lastSpecChange(crd: Crd): number | undefined {
  let newest: number | undefined;
  for (const entry of crd.metadata.managedFields ?? []) {
    if (entry.subresource || !entry.time || !entry.fieldsV1 || !('f:spec' in entry.fieldsV1)) continue;
    const time = Date.parse(entry.time);
    if (!Number.isNaN(time) && (newest === undefined || time > newest)) newest = time;
  }
  return newest;
}

/**
 * How long to wait before rewriting: what is left of {@link settleMs} since the spec last changed, never
 * more than `settleMs` (a client clock behind the server's must not make it wait longer).
 */
export function settleWaitMs(
  specChangedAt: number | undefined,
  now: number = Date.now(),
  settle = settleMs,
): number {
  if (specChangedAt === undefined) return 0;
  return Math.min(settle, Math.max(0, settle - (now - specChangedAt)));
}
