import { exitCodes } from '../exit-codes.ts';

/**
 * A signal that aborts on the first SIGINT or SIGTERM, for long-running commands (`status --watch`,
 * `migrate`) that stop cleanly when asked instead of dying mid-write. The handlers are removed by `dispose`,
 * so a library caller or a test that runs several commands in one process leaves nothing installed.
 */
export function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
    },
  };
}

/** A SIGINT/SIGTERM listener for the length of a run. */
export interface InterruptWatch {
  /** True once a stop was asked for. */
  requested: () => boolean;
  dispose: () => void;
}

/**
 * Turns the first SIGINT or SIGTERM into a request to stop between batches (the batch in flight finishes
 * and is checkpointed, so nothing is redone or lost); a second one exits at once with 130 (143 for SIGTERM), which is still
 * safe: the checkpoint before the batch in flight names it, and the rerun redoes it.
 */
export function onInterrupt(log: (line: string) => void): InterruptWatch {
  let requested = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (requested) process.exit(signal === 'SIGTERM' ? exitCodes.sigterm.code : exitCodes.sigint.code);
    requested = true;
    log(
      'interrupted: finishing the batch in flight and saving progress (press Ctrl-C again to stop at once)',
    );
  };
  process.on('SIGINT', handler).on('SIGTERM', handler);
  return {
    requested: () => requested,
    dispose: () => {
      process.off('SIGINT', handler).off('SIGTERM', handler);
    },
  };
}
