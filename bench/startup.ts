// bench/startup: what every invocation pays. Medians of `kubectl aso --help` and `kubectl aso version
// --client` (through kubectl, as users run them, and the plugin executable alone), against `node -e 0` and
// `kubectl version --client`, all measured in this run. Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const runs = Number(process.env.BENCH_RUNS ?? 21);
const bin = new URL('../bin', import.meta.url).pathname;
// A do-nothing plugin measures what kubectl itself costs to find and start any plugin.
const noopDir = mkdtempSync(join(tmpdir(), 'kubectl-noop-'));
writeFileSync(join(noopDir, 'kubectl-asobenchnoop'), '#!/bin/sh\nexit 0\n');
chmodSync(join(noopDir, 'kubectl-asobenchnoop'), 0o755);
const env = {
  ...process.env,
  PATH: `${bin}:${noopDir}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  NO_COLOR: '1',
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(command: string, args: string[]): number {
  const samples: number[] = [];
  for (let run = 0; run < runs + 2; run++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0)
      throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    if (run >= 2) samples.push(elapsed); // the first two warm the page cache and the compile cache
  }
  return median(samples);
}

const cases: Array<[string, string, string[]]> = [
  ['node -e 0', process.execPath, ['-e', '0']],
  ['kubectl version --client', 'kubectl', ['version', '--client']],
  ['kubectl asobenchnoop (sh plugin)', 'kubectl', ['asobenchnoop']],
  ['kubectl aso --help', 'kubectl', ['aso', '--help']],
  ['kubectl aso version --client', 'kubectl', ['aso', 'version', '--client']],
  ['kubectl-aso --help (no kubectl)', `${bin}/kubectl-aso`, ['--help']],
];
const results = new Map(cases.map(([name, command, args]) => [name, time(command, args)]));
const baseline = results.get('kubectl version --client')!;
console.log(`startup medians over ${runs} runs (node ${process.version})`);
for (const [name, ms] of results) {
  console.log(
    `  ${name.padEnd(34)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / baseline).toFixed(2)}x kubectl version --client`,
  );
}
const help = results.get('kubectl aso --help')!;
const direct = results.get('kubectl-aso --help (no kubectl)')!;
const floor = results.get('kubectl asobenchnoop (sh plugin)')! + results.get('node -e 0')!;
const verdict = (ms: number) => (ms <= 150 && ms / baseline <= 1.5 ? 'met' : 'MISSED');
console.log(`target through kubectl (--help <= 150 ms and <= 1.5x): ${verdict(help)}`);
console.log(`target for the plugin executable alone: ${verdict(direct)}`);
console.log(
  `floor for any Node plugin through kubectl (sh plugin + node -e 0): ${floor.toFixed(1)} ms = ${(floor / baseline).toFixed(2)}x`,
);
