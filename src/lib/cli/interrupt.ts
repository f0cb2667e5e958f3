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
