import type { PropertyDef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';
import type { Step } from '../plan-types.ts';

/**
 * Claims the storage spec's `originalVersion`: written with the spoke's version on the way into storage,
 * copied between storage versions, and not carried onto a spoke (which has no such field; the value is
 * bookkeeping the storage side recomputes, so no user data is involved).
 */
export function originalVersionSource(source: PropertyDef, ctx: PairContext): Step | undefined {
  if (source.name !== 'originalVersion' || ctx.direction !== 'fromStorage') return undefined;
  return {
    kind: 'skip',
    handler: 'originalVersion',
    source: source.name,
    reason: 'storage bookkeeping, not part of the API version',
  };
}

/** Claims the destination `originalVersion` when converting a spoke into its storage variant. */
export function originalVersionDestination(destination: PropertyDef, ctx: PairContext): Step | undefined {
  if (destination.name !== 'originalVersion' || ctx.direction !== 'toStorage') return undefined;
  return { kind: 'setOriginalVersion', handler: 'originalVersion', version: ctx.source.version };
}
