// The timing harness the cluster benches share: each command run as a user runs it, with stdout discarded,
// interleaved with its baseline so that both meet the plane's warm and cold moments alike.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** One timed run: wall time, peak RSS (NaN without GNU time) and exit code. */
export interface Measured {
  ms: number;
  maxRssKb: number;
  code: number;
}

/** Runs a command with stdout discarded, timing it, with its peak RSS from GNU time when available. */
export function measure(
  command: string,
  commandArgs: string[],
  kubeconfig: string,
  okCodes: readonly number[] = [0],
): Promise<Measured> {
  const useTime = existsSync('/usr/bin/time');
  const argv = useTime ? ['-f', '%M', command, ...commandArgs] : commandArgs;
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(useTime ? '/usr/bin/time' : command, argv, {
      env: { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const lines = stderr.trim().split('\n');
      const maxRssKb = useTime ? Number(lines.at(-1)) : Number.NaN;
      // A failed run is timed too, and said, so that a fast failure is never taken for a fast run.
      if (!okCodes.includes(code ?? -1))
        process.stderr.write(
          `  ${command} ${commandArgs.join(' ')} exited ${code}: ${stderr.slice(0, 500)}\n`,
        );
      done({ ms, maxRssKb, code: code ?? -1 });
    });
  });
}

/** The median, which one slow run (a GC, the plane compacting) does not move. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A command under test or a baseline, by the label its line is printed with. */
export interface Contender {
  label: string;
  command: string;
  args: string[];
  /** Exit codes that are the command's answer rather than a failure (upgrade-check's 28); 0 by default. */
  okCodes?: readonly number[];
}

/** Runs each contender `runs` times after one warm-up, interleaved so that they share the plane's moments. */
export async function race(
  contenders: Contender[],
  kubeconfig: string,
  runs: number,
): Promise<Map<string, Measured[]>> {
  const results = new Map<string, Measured[]>(contenders.map((c) => [c.label, []]));
  for (const contender of contenders)
    await measure(contender.command, contender.args, kubeconfig, contender.okCodes);
  for (let run = 0; run < runs; run++) {
    for (const contender of contenders) {
      results
        .get(contender.label)
        ?.push(await measure(contender.command, contender.args, kubeconfig, contender.okCodes));
    }
  }
  return results;
}

/** Prints a line per contender (median, peak RSS, every run) and returns the medians by label. */
export function report(results: Map<string, Measured[]>, labelWidth: number): Map<string, number> {
  const medians = new Map<string, number>();
  for (const [label, measured] of results) {
    const ms = median(measured.map((m) => m.ms));
    medians.set(label, ms);
    const rss = Math.max(...measured.map((m) => m.maxRssKb));
    const rssText = Number.isNaN(rss) ? '' : `  peak RSS ${(rss / 1024).toFixed(0)} MB`;
    const all = measured.map((m) => m.ms.toFixed(0)).join(' ');
    console.log(
      `  ${label.padEnd(labelWidth)} median ${ms.toFixed(0).padStart(6)} ms${rssText}   (runs: ${all})`,
    );
  }
  return medians;
}

/** One ratio against its target, as a line ending in PASS or MISS. */
export function verdict(name: string, ratio: number, target: number, nameWidth = 60): string {
  return `  ${name.padEnd(nameWidth)} ${ratio.toFixed(2)}x  (target <= ${target.toFixed(2)}x) ${ratio <= target ? 'PASS' : 'MISS'}`;
}
