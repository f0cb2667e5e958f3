import { exitCodes } from '../exit-codes.ts';

/** The shell's code for a run ended by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? exitCodes.sigterm.code : exitCodes.sigint.code;
}

/**
 * A signal that aborts on the first SIGINT or SIGTERM, for `status --watch`, which stops cleanly when
 * asked. A run that cannot stop cleanly within `graceMs` of the signal (one still waiting for a cluster
 * that never answers) exits with the signal's code then, instead of ignoring it. The handlers and that
 * deadline are removed by `dispose`, so a library caller or a test that runs several commands in one
 * process leaves nothing installed.
 */
export function interruptSignal(graceMs = 2000): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let deadline: NodeJS.Timeout | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    controller.abort();
    deadline = setTimeout(() => process.exit(signalExitCode(signal)), graceMs);
    deadline.unref();
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(deadline);
      process.off('SIGINT', stop).off('SIGTERM', stop);
    },
  };
}

/** A SIGINT/SIGTERM listener for the length of a run. */
export interface InterruptWatch {
  /** True once a stop was asked for. */
  requested: () => boolean;
  /**
   * Called before the run's first write: from then on the first signal waits for the batch in flight.
   * Before it, nothing is in flight that a stop would save, so a signal exits at once.
   */
  writing: () => void;
  dispose: () => void;
}

/**
 * Turns the first SIGINT or SIGTERM into a request to stop between batches (the batch in flight finishes
 * and is checkpointed, so nothing is redone or lost); a second one exits at once with 130 (143 for SIGTERM), which is still
 * safe: the checkpoint before the batch in flight names it, and the rerun redoes it. Before the run has
 * said it is {@link InterruptWatch.writing}, the first signal exits at once: a run still reading (or
 * waiting for a cluster that never answers) has nothing to save.
 */
export function onInterrupt(log: (line: string) => void): InterruptWatch {
  let requested = false;
  let writing = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (requested || !writing) process.exit(signalExitCode(signal));
    requested = true;
    log(
      'interrupted: finishing the batch in flight and saving progress (press Ctrl-C again to stop at once)',
    );
  };
  process.on('SIGINT', handler).on('SIGTERM', handler);
  return {
    requested: () => requested,
    writing: () => {
      writing = true;
    },
    dispose: () => {
      process.off('SIGINT', handler).off('SIGTERM', handler);
    },
  };
}
