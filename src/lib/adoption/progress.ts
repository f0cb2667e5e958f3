/** Where a progress line goes: a terminal stream (stderr), or anything shaped like one in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Told how far the Azure lookups are; the run calls it after each resource is answered. */
export type ProgressReporter = (done: number, total: number) => void;

/** A progress display that can be stopped (and its line cleared) before the result is printed. */
export interface Progress {
  report: ProgressReporter;
  stop(): void;
}

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Does nothing: for pipes, files, CI logs and structured output. */
export const noProgress: Progress = { report: () => {}, stop: () => {} };

/**
 * A spinner with `n/total` on one stderr line while the Azure lookups run, so a long check on a terminal
 * is visibly alive. Only when stderr is a terminal and the output is a table: JSON/YAML are for programs,
 * and a pipe or a CI log must get nothing but the result (no carriage returns, no escape codes).
 */
export function spinnerFor(stream: ProgressStream, output: string, intervalMs = 80): Progress {
  if (stream.isTTY !== true || output === 'json' || output === 'yaml') return noProgress;
  let done = 0;
  let total = 0;
  let frame = 0;
  let shown = false;
  const draw = () => {
    if (total === 0) return;
    stream.write(`\r${frames[frame++ % frames.length]} checking in Azure ${done}/${total}\x1b[K`);
    shown = true;
  };
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  return {
    report(n, of) {
      done = n;
      total = of;
      if (!shown || n === of) draw();
    },
    stop() {
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
