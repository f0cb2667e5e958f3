import type { KubeClient } from '../kube/client.ts';
import { Conflict } from '../kube/errors.ts';
import type { CheckpointStore } from './checkpoint.ts';
import { checkpointMatches } from './checkpoint.ts';
import { clientSidePreparer } from './client-convert.ts';
import { clientSideOf } from './client-preview.ts';
import {
  currentConversion,
  heldBy,
  type RestoreOutcome,
  restoreConversion,
  switchAnnotation,
  switchConversionOff,
} from './conversion-switch.ts';
import type { Crd } from './crds.ts';
import type { CrdPlan } from './plan-types.ts';
import { freshCheckpoint, type RewriteOptions, type RewriteResult, rewriteCrd } from './rewrite-crd.ts';
import { settleMs } from './settle.ts';

/** A client-side rewrite's result, and the CRD generation it left (its own CRD updates included). */
export interface ClientRewriteResult extends RewriteResult {
  generation: number;
}

/**
 * After one of this plugin's own CRD updates, moves a saved checkpoint that expected the generation
 * before it to the generation after it, so that the rewrite still resumes from it. A checkpoint that
 * expected another generation (someone else changed the CRD) is left to fail its match: the rewrite then
 * starts over, which is always safe.
 */
export async function adoptGeneration(
  store: CheckpointStore,
  crd: string,
  change: RestoreOutcome,
): Promise<void> {
  const saved = await store.load(crd);
  if (!saved) return;
  const { switched: _switched, ...rest } = saved;
  const crdGeneration =
    change.restored && saved.crdGeneration === change.before ? change.after : saved.crdGeneration;
  await store.save({ ...rest, crdGeneration, updatedAt: new Date().toISOString() });
}

/**
 * Rewrites one CRD's objects client-side: the CRD's conversion is switched to `None` (and its status
 * subresource off) for the duration, so that the API server never calls the webhook, and each object is
 * read at the version it is stored in, converted with the generated conversions and written whole at the
 * storage version (see `clientSidePreparer`); pages, checkpoints, conflicts and retries are the
 * server-side path's own (`rewriteCrd`). The original conversion is saved in the checkpoint before the
 * switch and on the CRD with it, and put back on every way out (done, failed, interrupted, thrown); a run
 * killed in between leaves it recorded for the next run to restore first (see `restoreSwitchedCrds`).
 */
export async function rewriteClientSide(
  client: KubeClient,
  plan: CrdPlan & { target: string },
  store: CheckpointStore,
  options: RewriteOptions,
): Promise<ClientRewriteResult> {
  const saved = await store.load(plan.name);
  const resumable =
    saved !== undefined &&
    !options.restart &&
    checkpointMatches(saved, { target: plan.target, crdUid: plan.uid, crdGeneration: plan.generation });
  const base = resumable ? saved : freshCheckpoint(plan, plan.target);
  const record = await currentConversion(client, plan.name, options.backoff);
  await store.save({ ...base, switched: record, updatedAt: new Date().toISOString() });
  let generation = plan.generation;
  let result: RewriteResult;
  try {
    let change: { before: number; after: number };
    try {
      change = await switchConversionOff(client, plan.name, record, plan.generation, options.backoff);
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      return {
        checkpoint: base,
        complete: false,
        interrupted: false,
        stopped: `${error.message}; rerun`,
        resumedAfterBatches: 0,
        generation,
      };
    }
    generation = change.after;
    await store.save({
      ...base,
      switched: record,
      crdGeneration: change.after,
      updatedAt: new Date().toISOString(),
    });
    options.log(
      `${plan.name}: conversion switched to None for the client-side rewrite (the original is kept in the annotation ${switchAnnotation} and in ${store.where})`,
    );
    // Every API server applies a CRD change a moment after the update returns (see settle.ts); each write
    // is also checked with dryRun first, so one that has not would refuse rather than store.
    await new Promise((done) => setTimeout(done, settleMs));
    result = await rewriteCrd(client, { ...plan, generation: change.after }, store, {
      ...options,
      restart: false,
      write: {
        ...options.write,
        prepare: clientSidePreparer(client, clientSideOf(plan), options.backoff),
      },
    });
  } finally {
    const restored = await restoreConversion(client, plan.name, options.backoff);
    await adoptGeneration(store, plan.name, restored);
    if (restored.restored) {
      if (restored.before === generation) generation = restored.after;
      options.log(`${plan.name}: conversion restored${restored.note ? ` (${restored.note})` : ''}`);
    }
  }
  return { ...result, generation };
}

/** A CRD whose conversion a run put back, and why what it put back differs from its record, if it does. */
export interface RestoredCrd {
  name: string;
  note?: string;
}

/**
 * Before anything else, a run puts back the conversion of every CRD in `names` (those a client-side run
 * left switched off, killed before it could restore them: see `switchedCrdNames`), from the record on the
 * CRD. A dry run writes nothing, so it only warns. Each restore is one update that puts the conversion back
 * and removes the record together, so a restore killed itself leaves the CRD switched and recorded for the
 * next run, and a restore of a CRD already restored does nothing.
 */
export async function restoreSwitchedCrds(
  client: KubeClient,
  names: string[],
  store: CheckpointStore | undefined,
  log: (line: string) => void,
): Promise<{ restored: RestoredCrd[]; warnings: string[] }> {
  const warnings: string[] = [];
  const restoredCrds: RestoredCrd[] = [];
  for (const name of [...new Set(names)].sort()) {
    if (!store) {
      warnings.push(
        `${name}: an interrupted client-side migrate left its conversion switched to None (annotation ${switchAnnotation}); a run without --dry-run restores it first`,
      );
      continue;
    }
    const restored = await restoreConversion(client, name);
    await adoptGeneration(store, name, restored);
    if (restored.restored) {
      restoredCrds.push({ name, ...(restored.note ? { note: restored.note } : {}) });
      log(
        `${name}: restored the conversion an interrupted client-side run had switched off${restored.note ? ` (${restored.note})` : ''}`,
      );
    }
  }
  return { restored: restoredCrds, warnings };
}

/** The CRDs among `crds` that carry a switch record (checked one by one where CRDs may not be listed). */
export function recordedSwitches(crds: Crd[]): string[] {
  return crds
    .filter((crd) => crd.metadata.annotations?.[switchAnnotation] !== undefined)
    .filter((crd) => heldBy(crd.metadata.annotations) === undefined)
    .map((crd) => crd.metadata.name);
}
