import { describe, expect, it } from 'vitest';
import { migrationDisplayFor, progressLine } from '../../../src/lib/render/migrate-progress.ts';

function terminal(isTTY: boolean, columns = 120) {
  const writes: string[] = [];
  return { isTTY, columns, writes, write: (text: string) => writes.push(text) };
}

describe('migrate progress', () => {
  it('draws done/total, percentage, rate and ETA, counting the rate from this run only', () => {
    // 300 of 1,000 done after a resume that found 200 saved: 100 in 10 s is 10/s, 700 left is 70 s.
    expect(progressLine('widgets.x.azure.com', 300, 1000, 100, 10_000)).toBe(
      'widgets.x.azure.com [#######.................] 300/1000 30% 10/s ETA 1m10s',
    );
    expect(progressLine('w', 5, undefined, 5, 2_000)).toBe('w 5 objects 2.5/s');
    expect(progressLine('w', 0, 10, 0, 0)).toMatch(/0\/10 0% 0\.0\/s ETA \?$/);
  });

  it('on a terminal redraws one bar per CRD in place and keeps other lines above it', () => {
    let clock = 0;
    const tty = terminal(true);
    const display = migrationDisplayFor(tty, 'table', () => clock);
    display.progress?.start('a.x.azure.com', 10);
    clock = 1000;
    display.progress?.advance('a.x.azure.com', 4, 4, 'a.x.azure.com: batch 1: 4 objects: ...');
    display.log('a.x.azure.com: the continue token expired; continuing with a fresh one');
    clock = 2000;
    display.progress?.advance('a.x.azure.com', 10, 6, 'a.x.azure.com: batch 2: ...');
    display.progress?.end('a.x.azure.com');
    const screen = tty.writes.join('');
    // Batch lines are not printed: the bar stands for them.
    expect(screen).not.toContain('batch 1');
    expect(screen).toContain('\ra.x.azure.com [##########..............] 4/10 40% 4.0/s ETA 2s\x1b[K');
    expect(screen).toContain(
      '\r\x1b[Ka.x.azure.com: the continue token expired; continuing with a fresh one\n',
    );
    expect(screen.endsWith('a.x.azure.com [########################] 10/10 100% 5.0/s ETA 0s\x1b[K\n')).toBe(
      true,
    );
  });

  it('prints plain lines, batches included, on a pipe and for JSON or YAML output', () => {
    for (const [isTTY, output] of [
      [false, 'table'],
      [true, 'json'],
      [true, 'yaml'],
    ] as const) {
      const stream = terminal(isTTY);
      const display = migrationDisplayFor(stream, output);
      expect(display.progress).toBeUndefined();
      display.log('a: batch 1: 4 objects');
      expect(stream.writes).toEqual(['a: batch 1: 4 objects\n']);
    }
  });

  it('clips the bar to the terminal width', () => {
    const tty = terminal(true, 30);
    const display = migrationDisplayFor(tty, 'table', () => 0);
    display.progress?.start('storageaccounts.storage.azure.com', 100);
    const drawn = tty.writes.at(-1) ?? '';
    expect(drawn.replace('\r', '').replace('\x1b[K', '').length).toBeLessThan(30);
  });
});
