import type { KubeClient } from '../kube/client.ts';
import type { ListTuning } from './collect.ts';
import { LiveStatus, type StatusChange } from './live.ts';
import type { StatusItem, StatusReport, StatusWarning } from './report.ts';
import type { StatusSelection } from './selection.ts';

/** What `--wait` ends with: the final report, and whether time ran out. */
export interface WaitOutcome {
  report: StatusReport;
  timedOut: boolean;
  /** How many objects the selection matched while waiting (before `--state`); 0 means nothing to wait for. */
  selected: number;
}

/**
 * How many watched objects are not Ready, kept current change by change, so that a wait over tens of
 * thousands of objects does constant work per event instead of a pass over all of them.
 */
export class NotReadyCount {
  count = 0;

  /** Starts from a full snapshot. */
  reset(items: Iterable<StatusItem>): void {
    this.count = 0;
    for (const item of items) if (!item.ready) this.count++;
  }

  /** Applies one change: the line it replaces (if any) leaves, the new line (unless deleted) enters. */
  apply(change: StatusChange): void {
    if (change.previous && !change.previous.ready) this.count--;
    if (change.type !== 'DELETED' && !change.item.ready) this.count++;
  }
}

/** The longest delay a Node timer takes (about 24.8 days); longer ones would fire at once. */
export const maxTimerMs = 2 ** 31 - 1;

/**
 * Waits until every selected object is Ready at its current generation (a stale Ready is not enough: the
 * operator has not seen the latest spec yet), or until `timeoutMs` passes (0 checks once; anything above
 * {@link maxTimerMs} waits that long), or, with `stopWhen`, until an object matches it. With no object
 * selected it returns at once. `onProgress` hears how many are not Ready yet whenever that changes;
 * `onWarning` hears of a type that could no longer be watched (it is also in the report's warnings).
 * Rejects with the typed error when the cluster goes away or rejects the credentials while waiting.
 */
export async function waitForReady(
  client: KubeClient,
  selection: StatusSelection,
  options: {
    timeoutMs: number;
    stopWhen?: ((item: StatusItem) => boolean) | undefined;
    onProgress?: ((notReady: number, total: number) => void) | undefined;
    onWarning?: ((warning: StatusWarning) => void) | undefined;
    tuning?: ListTuning;
  },
): Promise<WaitOutcome> {
  const controller = new AbortController();
  const live = new LiveStatus(client, selection, options.tuning);
  let resolve: (timedOut: boolean) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const settled = new Promise<boolean>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // A fatal error may arrive after the race is decided; it must not become an unhandled rejection.
  settled.catch(() => undefined);
  let lastNotReady = -1;
  const notReady = new NotReadyCount();
  let snapshotTaken = false;
  const progress = (): void => {
    if (notReady.count !== lastNotReady) {
      lastNotReady = notReady.count;
      options.onProgress?.(notReady.count, live.items.size);
    }
    if (notReady.count === 0) resolve(false);
  };
  const snapshot = (): void => {
    snapshotTaken = true;
    notReady.reset(live.items.values());
    for (const item of live.items.values()) if (options.stopWhen?.(item)) resolve(false);
    progress();
  };
  const check = (change: StatusChange): void => {
    if (!snapshotTaken) return;
    notReady.apply(change);
    if (change.type !== 'DELETED' && options.stopWhen?.(change.item)) resolve(false);
    progress();
  };
  const timeoutMs = Math.min(Math.max(0, options.timeoutMs), maxTimerMs);
  const timer = timeoutMs > 0 ? setTimeout(() => resolve(true), timeoutMs) : undefined;
  const starting = live.start(controller.signal, {
    onChange: check,
    onWarning: options.onWarning,
    onFatal: reject,
  });
  starting.catch(() => undefined);
  try {
    await Promise.race([starting, settled]);
    snapshot();
    if (timeoutMs === 0) resolve(true);
    const timedOut = await settled;
    return { report: live.report(), timedOut, selected: live.items.size };
  } finally {
    clearTimeout(timer);
    controller.abort();
    await live.stopped();
  }
}
