import type { MigrationProgress } from '../migrate/progress.ts';

/** Where the display writes: stderr in the command, anything shaped like it in tests. */
export interface ProgressTerminal {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** A progress display that also carries the run's other lines, so they never tear the bar. */
export interface MigrationDisplay {
  progress: MigrationProgress | undefined;
  log(line: string): void;
}

const barWidth = 24;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * One bar line for a CRD: done/total, percentage, rate and ETA (rate from this run's own progress, so a
 * resumed run's saved counts do not inflate it). Without a total, the count and rate only.
 */
export function progressLine(
  crd: string,
  done: number,
  total: number | undefined,
  doneThisRun: number,
  elapsedMs: number,
): string {
  const rate = elapsedMs > 0 ? (doneThisRun / elapsedMs) * 1000 : 0;
  const rateText = `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s`;
  if (total === undefined || total <= 0) return `${crd} ${done} objects ${rateText}`;
  const shown = Math.min(done, total);
  const filled = Math.round((shown / total) * barWidth);
  const eta = rate > 0 ? duration((total - shown) / rate) : '?';
  const percent = Math.floor((shown / total) * 100);
  return `${crd} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${shown}/${total} ${percent}% ${rateText} ETA ${eta}`;
}

/**
 * On a terminal (and for table output), a bar per CRD redrawn in place after each batch; a finished CRD's
 * bar stays as a line. Elsewhere (pipes, CI logs, JSON/YAML output) no bar: every batch is a plain line,
 * as before. Other lines are printed above the bar.
 */
export function migrationDisplayFor(
  terminal: ProgressTerminal,
  output: string,
  now: () => number = Date.now,
): MigrationDisplay {
  const plain = (line: string) => {
    terminal.write(`${line}\n`);
  };
  if (terminal.isTTY !== true || output === 'json' || output === 'yaml')
    return { progress: undefined, log: plain };
  let current:
    | { crd: string; total: number | undefined; startedAt: number; thisRun: number; line: string }
    | undefined;
  const clipped = (text: string) => {
    const width = terminal.columns || 80; // a pseudo-terminal without a size reports 0
    return text.length < width ? text : `${text.slice(0, Math.max(0, width - 2))}…`;
  };
  const draw = () => {
    if (current) terminal.write(`\r${clipped(current.line)}\x1b[K`);
  };
  return {
    log(line) {
      if (current) terminal.write('\r\x1b[K');
      plain(line);
      draw();
    },
    progress: {
      start(crd, total) {
        current = { crd, total, startedAt: now(), thisRun: 0, line: progressLine(crd, 0, total, 0, 0) };
        draw();
      },
      advance(crd, done, batchSize) {
        if (!current || current.crd !== crd) return;
        // The rate counts this run's batches only: a resumed run's saved counts took no time here.
        current.thisRun += batchSize;
        current.line = progressLine(crd, done, current.total, current.thisRun, now() - current.startedAt);
        draw();
      },
      end(crd) {
        if (!current || current.crd !== crd) return;
        draw();
        terminal.write('\n');
        current = undefined;
      },
    },
  };
}
