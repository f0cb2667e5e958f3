import type { ExitCodeName } from '../exit-codes.ts';
import type { KubeClient } from '../kube/client.ts';
import { type Backoff, defaultBackoff } from './backoff.ts';
import { backupWriter, checkBackupDir } from './backup.ts';
import type { CheckpointStore } from './checkpoint.ts';
import { ConfigMapCheckpointStore } from './checkpoint-configmap.ts';
import { FileCheckpointStore } from './checkpoint-file.ts';
import { MemoryCheckpointStore } from './checkpoint-memory.ts';
import { previewClientSide } from './client-preview.ts';
import { switchedCrdNames } from './conversion-switch.ts';
import { selectedCrds } from './crds.ts';
import { finishCrd } from './finish.ts';
import type { MigrateOptions } from './options.ts';
import { checkPermissions, MissingPermissions, type NeededAccess } from './permissions.ts';
import { planMigration } from './plan.ts';
import type { CrdPlan } from './plan-types.ts';
import type { MigrationProgress } from './progress.ts';
import { type CrdOutcome, type CrdReport, type MigrationReport, migrationExitCode } from './report.ts';
import {
  type RestoredCrd,
  recordedSwitches,
  restoreSwitchedCrds,
  rewriteClientSide,
} from './rewrite-client.ts';
import { type RewriteOptions, type RewriteResult, rewriteCrd } from './rewrite-crd.ts';
import { settleWaitMs } from './settle.ts';

/** How a run talks to its caller while it works. */
export interface MigrateHooks {
  /** Plain progress lines (stderr in the command). */
  log: (line: string) => void;
  /** True once the user asked to stop (SIGINT): the batch in flight finishes and is checkpointed. */
  interrupted: () => boolean;
  /** Called once, just before the first rewrite: until then a stop has nothing in flight to finish. */
  writing?: () => void;
  backoff?: Backoff;
  /** A progress display (a bar on a terminal); without it, every batch is a {@link log} line. */
  progress?: MigrationProgress;
}

/** The report and the exit code of a run. */
export interface MigrateOutcome {
  report: MigrationReport;
  exit: ExitCodeName;
}

function storeFor(
  client: KubeClient,
  options: Pick<MigrateOptions, 'serverDryRun' | 'state' | 'restart'>,
): CheckpointStore {
  if (options.serverDryRun) return new MemoryCheckpointStore();
  return 'file' in options.state
    ? new FileCheckpointStore(options.state.file, options.restart)
    : new ConfigMapCheckpointStore(client, options.state.namespace);
}

/**
 * What the run will write, to be checked before its first write. A server-side dry run needs what its
 * writes need (the API server authorizes a dry run as the write), but patches no CRD and saves no progress.
 */
function neededAccess(plans: CrdPlan[], options: MigrateOptions): NeededAccess[] {
  const needed: NeededAccess[] = plans.flatMap((plan) => [
    { verb: 'list', group: plan.access.group, resource: plan.access.plural },
    { verb: 'update', group: plan.access.group, resource: plan.access.plural },
    ...(plan.strategy === 'client' && !options.serverDryRun ? clientSideAccess(plan) : []),
    ...(options.serverDryRun
      ? []
      : [
          {
            verb: 'patch',
            group: 'apiextensions.k8s.io',
            resource: 'customresourcedefinitions',
            subresource: 'status',
            name: plan.name,
          },
        ]),
  ]);
  if ('namespace' in options.state && !options.serverDryRun) {
    for (const verb of ['get', 'create', 'update', 'delete']) {
      needed.push({ verb, group: '', resource: 'configmaps', namespace: options.state.namespace });
    }
  }
  return needed;
}

/**
 * What a client-side rewrite needs besides a server-side one: objects are read by name at each stored
 * version, and the CRD's conversion is switched off and back.
 */
function clientSideAccess(plan: CrdPlan): NeededAccess[] {
  return [
    { verb: 'get', group: plan.access.group, resource: plan.access.plural },
    { verb: 'update', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', name: plan.name },
  ];
}

function reportOf(plan: CrdPlan, outcome: CrdOutcome, extra: Partial<CrdReport> = {}): CrdReport {
  return {
    name: plan.name,
    kind: plan.kind,
    outcome,
    strategy: plan.strategy,
    reason: plan.reason,
    target: plan.target,
    servedVersions: plan.servedVersions,
    storageVersion: plan.storageVersion,
    storedVersionsBefore: plan.storedVersions,
    storedVersionsAfter: plan.storedVersions,
    objectsToCheck: plan.objectsToCheck,
    migrated: 0,
    alreadyCurrent: 0,
    deleted: 0,
    failed: [],
    ...extra,
  };
}

/** How the API server words a failed conversion webhook call in an error message. */
const conversionFailed = /conver/i;

const plannedOutcome: Record<CrdPlan['action'], CrdOutcome> = {
  migrate: 'planned',
  clean: 'clean',
  skip: 'skipped',
  unavailable: 'unavailable',
};

/**
 * Checks the local paths a writing run needs (`--state-file`, `--backup-dir`) before the cluster is
 * touched, so that a typo in a path is a named error (exit 9) and never found after the first write.
 */
export function checkLocalPaths(options: MigrateOptions): void {
  if (options.dryRun || options.serverDryRun) return;
  if ('file' in options.state) new FileCheckpointStore(options.state.file, options.restart).check();
  if (options.backupDir !== undefined) checkBackupDir(options.backupDir);
}

/**
 * Runs `migrate`: first restores the conversion of any CRD an interrupted client-side run left switched
 * off, then plans every selected CRD; with `--dry-run` stops there (with a per-object preview of each
 * client-side CRD). Otherwise checks every permission the writes need, then per CRD rewrites its objects
 * server-side or client-side (resuming from a checkpoint when one matches) and, when every object is
 * verified at the target, cleans `status.storedVersions`. CRDs whose target is not the storage version, or
 * that no allowed strategy can rewrite, are reported and never written. SIGINT stops between batches,
 * after the checkpoint.
 */
export async function runMigration(
  client: KubeClient,
  options: MigrateOptions,
  hooks: MigrateHooks,
): Promise<MigrateOutcome> {
  const writes = !options.dryRun && !options.serverDryRun;
  const store = writes ? storeFor(client, options) : undefined;
  // Before anything else, even `--kind`'s discovery (which can fail): every CRD left switched, whatever its kind.
  const leftAlone = (name: string, why: string) =>
    hooks.log(
      `${name}: left switched, ${why}; \`kubectl aso migrate --restore\` restores it once that run is gone`,
    );
  const switched = await restoreSwitchedCrds(
    client,
    // The run's first request: a cluster not there is named at once, not retried in silence.
    await switchedCrdNames(
      client,
      { ...(hooks.backoff ?? defaultBackoff), retryUnreachable: false },
      leftAlone,
    ),
    store,
    hooks.log,
  );
  let crds = await selectedCrds(client, options.kinds);
  // Where the user may not list CRDs the list above is empty: the selected CRDs are checked one by one.
  const missed = await restoreSwitchedCrds(client, recordedSwitches(crds), store, hooks.log);
  if (missed.restored.length > 0) crds = await selectedCrds(client, options.kinds);
  const plan = await planMigration(client, crds, {
    target: options.target,
    targetText: options.targetText,
    strategy: options.strategy,
    pageSize: options.batchSize,
  });
  plan.warnings.push(...switched.warnings, ...missed.warnings);
  const reports = plan.crds.map((crd) => reportOf(crd, plannedOutcome[crd.action]));
  const report: MigrationReport = {
    target: plan.target,
    dryRun: options.dryRun || options.serverDryRun === true,
    ...(options.serverDryRun ? { dryRunMode: 'server' as const } : {}),
    crds: reports,
    warnings: plan.warnings,
  };
  const backoff = hooks.backoff ?? defaultBackoff;
  // A dry run cannot switch a CRD's conversion off: it previews what client-side conversion would do.
  if (!writes) {
    for (const [index, crd] of plan.crds.entries()) {
      if (crd.action !== 'migrate' || crd.strategy !== 'client' || crd.target === undefined) continue;
      const preview = await previewClientSide(
        client,
        { ...crd, target: crd.target },
        options.batchSize,
        backoff,
      );
      reports[index] = reportOf(crd, 'planned', {
        preview: preview.objects,
        ...(preview.reason ? { reason: `${crd.reason ?? ''}; ${preview.reason}` } : {}),
      });
    }
  }
  const toMigrate = plan.crds.filter(
    (crd) => crd.action === 'migrate' && !(options.serverDryRun && crd.strategy === 'client'),
  );
  if (options.dryRun || toMigrate.length === 0) return { report, exit: migrationExitCode(report) };

  await checkPermissions(client, neededAccess(toMigrate, options));
  // A server-side dry run writes nothing, so there is nothing to back up.
  const backupDir = options.serverDryRun ? undefined : options.backupDir;
  if (backupDir !== undefined) checkBackupDir(backupDir);
  const checkpoints = store ?? storeFor(client, options);
  hooks.writing?.();
  let stop = false;
  for (const [index, crd] of plan.crds.entries()) {
    if (crd.action !== 'migrate' || crd.target === undefined) continue;
    if (options.serverDryRun && crd.strategy === 'client') continue;
    if (stop) {
      reports[index] = reportOf(crd, 'notStarted');
      continue;
    }
    hooks.log(
      `${crd.name}: ${crd.objectsToCheck ?? '?'} objects to rewrite at ${crd.target} (from stored versions ${crd.storedVersions.join(', ')})`,
    );
    const wait = settleWaitMs(crd.specChangedAt);
    if (wait > 0) {
      hooks.log(
        `${crd.name}: its spec changed moments ago; waiting ${Math.ceil(wait / 1000)} s for the API server to apply it`,
      );
      await new Promise((done) => setTimeout(done, wait));
    }
    hooks.progress?.start(crd.name, crd.objectsToCheck);
    const rewriteOptions: RewriteOptions = {
      batchSize: options.batchSize,
      concurrency: options.concurrency,
      backoff,
      restart: options.restart,
      interrupted: hooks.interrupted,
      log: hooks.log,
      ...(hooks.progress
        ? {
            onBatch: (done: number, size: number, line: string) =>
              hooks.progress?.advance(crd.name, done, size, line),
          }
        : {}),
      write: {
        ...(options.serverDryRun ? { dryRun: true } : {}),
        ...(backupDir !== undefined ? { beforeFirstWrite: backupWriter(backupDir, crd.name) } : {}),
      },
    };
    const planned = { ...crd, target: crd.target };
    let strategy = crd.strategy;
    let reason = crd.reason;
    let generation = crd.generation;
    let rewrite: RewriteResult;
    if (strategy === 'client') {
      const clientResult = await rewriteClientSide(client, planned, checkpoints, rewriteOptions);
      rewrite = clientResult;
      generation = clientResult.generation;
    } else {
      rewrite = await rewriteCrd(client, planned, checkpoints, rewriteOptions);
    }
    hooks.progress?.end(crd.name);
    // The plan's probe may be answered from the watch cache, which holds objects converted when they were
    // cached; the webhook's refusal then shows only when an update reads the object from etcd.
    const needsClient =
      strategy === 'server' &&
      options.strategy === 'auto' &&
      !rewrite.interrupted &&
      !rewrite.complete &&
      (rewrite.stopped !== undefined ||
        rewrite.checkpoint.counts.failed.some((failed) => conversionFailed.test(failed.reason)));
    let refusal = needsClient ? crd.clientRefusal() : undefined;
    if (needsClient && refusal === undefined && !options.serverDryRun) {
      // Asked only now: a run that never needs client-side must not need its permissions.
      try {
        await checkPermissions(client, clientSideAccess(crd));
      } catch (error) {
        if (!(error instanceof MissingPermissions)) throw error;
        refusal = error.message;
      }
    }
    if (needsClient && refusal !== undefined) {
      const counts = rewrite.checkpoint.counts;
      reports[index] = reportOf(crd, 'unavailable', {
        migrated: counts.migrated,
        alreadyCurrent: counts.alreadyCurrent,
        deleted: counts.deleted,
        failed: counts.failed,
        strategy: 'client',
        reason: `the API server cannot convert some objects, and client-side conversion is refused: ${refusal}`,
      });
      continue;
    }
    if (needsClient && !options.serverDryRun) {
      hooks.log(`${crd.name}: the API server cannot convert some objects; rewriting them client-side`);
      strategy = 'client';
      reason = 'client-side: the API server could not convert some objects during the server-side rewrite';
      hooks.progress?.start(crd.name, crd.objectsToCheck);
      const clientResult = await rewriteClientSide(client, planned, checkpoints, {
        ...rewriteOptions,
        restart: true,
      });
      hooks.progress?.end(crd.name);
      rewrite = clientResult;
      generation = clientResult.generation;
    }
    const counts = rewrite.checkpoint.counts;
    const done = {
      strategy,
      reason,
      migrated: counts.migrated,
      alreadyCurrent: counts.alreadyCurrent,
      deleted: counts.deleted,
      failed: counts.failed,
    };
    if (rewrite.interrupted) {
      stop = true;
      reports[index] = reportOf(crd, 'interrupted', {
        ...done,
        reason: `interrupted; progress saved in ${checkpoints.where}`,
      });
      continue;
    }
    if (!rewrite.complete) {
      const why =
        rewrite.stopped ??
        `${counts.failed.length} objects could not be rewritten; storedVersions left unchanged (rerun to retry them)`;
      reports[index] = reportOf(crd, 'incomplete', { ...done, reason: why });
      continue;
    }
    if (options.serverDryRun) {
      reports[index] = reportOf(crd, 'planned', {
        ...done,
        reason: `dry run (server): the API server accepted ${counts.migrated} rewrites with dryRun=All and stored none; storedVersions left unchanged`,
      });
      continue;
    }
    const finished = await finishCrd(client, {
      name: crd.name,
      uid: crd.uid,
      generation,
      target: crd.target,
    });
    if (finished.finished) {
      await checkpoints.clear(crd.name);
      hooks.log(`${crd.name}: storedVersions is now [${finished.storedVersions.join(', ')}]`);
      reports[index] = reportOf(crd, 'finished', { ...done, storedVersionsAfter: finished.storedVersions });
    } else {
      await checkpoints.clear(crd.name);
      reports[index] = reportOf(crd, 'incomplete', {
        ...done,
        reason: finished.reason,
        storedVersionsAfter: finished.storedVersions,
      });
    }
  }
  return { report, exit: migrationExitCode(report) };
}

/** What `migrate --restore` did: the CRDs whose conversion it put back (none when none was left switched). */
export interface RestoreReport {
  restored: RestoredCrd[];
}

/**
 * Runs `migrate --restore`: puts back the conversion of every CRD an interrupted client-side run left
 * switched (found by its record, whatever its kind) and does nothing else. A saved checkpoint of such a
 * CRD in `state` is moved to the CRD's new generation, so that a rerun still resumes from it.
 */
export async function runRestore(
  client: KubeClient,
  state: MigrateOptions['state'],
  log: (line: string) => void,
): Promise<RestoreReport> {
  const store = storeFor(client, { state, restart: false });
  const { restored } = await restoreSwitchedCrds(client, await switchedCrdNames(client), store, log);
  return { restored };
}
