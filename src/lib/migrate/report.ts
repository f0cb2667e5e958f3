import type { ExitCodeName } from '../exit-codes.ts';
import type { FailedObject } from './checkpoint.ts';
import type { ObjectPreview } from './client-convert.ts';
import type { Strategy } from './plan-types.ts';

/**
 * Where one CRD ended: `finished` (objects rewritten, `storedVersions` cleaned), `clean` (nothing to do),
 * `planned` (`--dry-run`), `skipped` (the target is not its storage version), `unavailable` (the API
 * server cannot convert its objects and client-side conversion is refused, or the strategy asked for is
 * refused: see reason), `incomplete` (objects failed, or the rewrite stopped: see
 * reason), `interrupted` (Ctrl-C; resumable) or `notStarted` (the run was interrupted before it).
 */
export type CrdOutcome =
  | 'finished'
  | 'clean'
  | 'planned'
  | 'skipped'
  | 'unavailable'
  | 'incomplete'
  | 'interrupted'
  | 'notStarted';

/** One CRD in the report: the JSON fields the issue names, and the plan beside them. */
export interface CrdReport {
  name: string;
  kind: string;
  outcome: CrdOutcome;
  strategy: Strategy;
  reason: string | undefined;
  target: string | undefined;
  servedVersions: string[];
  storageVersion: string;
  storedVersionsBefore: string[];
  storedVersionsAfter: string[];
  /** Objects that may still be at an old version when planned (see `CrdPlan.objectsToCheck`). */
  objectsToCheck: number | undefined;
  migrated: number;
  alreadyCurrent: number;
  deleted: number;
  failed: FailedObject[];
  /**
   * `--dry-run` of a client-side CRD: per object, the versions it may be stored at and what the generated
   * conversion would put in `$propertyBag` (or why it would fail).
   */
  preview?: ObjectPreview[];
}

/** What `kubectl aso migrate` prints with `-o json`. */
export interface MigrationReport {
  target: string;
  dryRun: boolean;
  /** Set with `--dry-run=server`: the writes were sent with `dryRun=All` and nothing was stored. */
  dryRunMode?: 'server';
  crds: CrdReport[];
  warnings: string[];
}

/**
 * The exit code of a run: interrupted (resumable) wins; then any CRD left with old stored versions that
 * the run was asked to clean (skipped, unavailable, incomplete) makes it incomplete. A dry run succeeds
 * when it could plan; a server-side dry run is judged like a run, since its writes were really tried.
 */
export function migrationExitCode(report: MigrationReport): ExitCodeName {
  if (report.dryRun && report.dryRunMode !== 'server') return 'ok';
  if (report.crds.some((crd) => crd.outcome === 'interrupted' || crd.outcome === 'notStarted'))
    return 'interrupted';
  const unfinished = new Set<CrdOutcome>(['skipped', 'unavailable', 'incomplete']);
  return report.crds.some((crd) => unfinished.has(crd.outcome)) ? 'migrationIncomplete' : 'ok';
}
