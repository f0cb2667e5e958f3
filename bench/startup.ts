// bench/startup: what every invocation pays. Medians of `kubectl aso --help` and `kubectl aso version
// --client` (through kubectl, as users run them, and the plugin executable alone), against `node -e 0` and
// `kubectl version --client`, all measured in this run. Run `npm run build` first. When `npm run package`
// has been run, the single executable (dist-package/kubectl-aso) is measured beside the npm install, with
// the ratio of the two.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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
  // Completion: what a tab costs (fixed values; kubectl adds its own start on top).
  ['kubectl_complete-aso status -o (npm)', `${bin}/kubectl_complete-aso`, ['status', '-o', '']],
  ['kubectl __complete aso status -o (npm)', 'kubectl', ['__complete', 'aso', 'status', '-o', '']],
];
// The single executable, found by kubectl through a folder of its own (the npm install's bin/ is on PATH too,
// so its kubectl-aso would win otherwise).
const sea = new URL('../dist-package/kubectl-aso', import.meta.url).pathname;
const seaDir = mkdtempSync(join(tmpdir(), 'kubectl-aso-sea-'));
if (existsSync(sea)) {
  symlinkSync(sea, join(seaDir, 'kubectl-aso'));
  cases.push(
    ['kubectl-aso --help (executable)', sea, ['--help']],
    ['kubectl-aso version --client (exe)', sea, ['version', '--client']],
    ['kubectl-aso status --help (exe, oclif)', sea, ['status', '--help', '-A']],
    ['kubectl-aso version --client (npm)', `${bin}/kubectl-aso`, ['version', '--client']],
    ['kubectl-aso status --help (npm, oclif)', `${bin}/kubectl-aso`, ['status', '--help', '-A']],
    ['kubectl aso --help (executable)', 'env', [`PATH=${seaDir}:${env.PATH}`, 'kubectl', 'aso', '--help']],
    ['kubectl-aso __complete status -o (exe)', sea, ['__complete', 'status', '-o', '']],
  );
} else {
  console.log('single executable: not measured (run npm run package first)');
}
const results = new Map(cases.map(([name, command, args]) => [name, time(command, args)]));
rmSync(seaDir, { recursive: true, force: true });
rmSync(noopDir, { recursive: true, force: true });
const baseline = results.get('kubectl version --client')!;
console.log(`startup medians over ${runs} runs (node ${process.version})`);
for (const [name, ms] of results) {
  console.log(
    `  ${name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / baseline).toFixed(2)}x kubectl version --client`,
  );
}
const help = results.get('kubectl aso --help')!;
const direct = results.get('kubectl-aso --help (no kubectl)')!;
const floor = results.get('kubectl asobenchnoop (sh plugin)')! + results.get('node -e 0')!;
const verdict = (ms: number) => (ms <= 150 && ms / baseline <= 1.5 ? 'met' : 'MISSED');
console.log(`target through kubectl (--help <= 150 ms and <= 1.5x): ${verdict(help)}`);
console.log(`target for the plugin executable alone: ${verdict(direct)}`);
const completion = results.get('kubectl_complete-aso status -o (npm)')!;
console.log(`completion (kubectl_complete-aso alone) <= 150 ms: ${completion <= 150 ? 'met' : 'MISSED'}`);
console.log(
  `floor for any Node plugin through kubectl (sh plugin + node -e 0): ${floor.toFixed(1)} ms = ${(floor / baseline).toFixed(2)}x`,
);
if (existsSync(sea)) {
  const pairs: Array<[string, string, string]> = [
    ['--help', 'kubectl-aso --help (executable)', 'kubectl-aso --help (no kubectl)'],
    ['version --client', 'kubectl-aso version --client (exe)', 'kubectl-aso version --client (npm)'],
    [
      'status --help (oclif)',
      'kubectl-aso status --help (exe, oclif)',
      'kubectl-aso status --help (npm, oclif)',
    ],
    ['kubectl aso --help', 'kubectl aso --help (executable)', 'kubectl aso --help'],
    ['completion', 'kubectl-aso __complete status -o (exe)', 'kubectl_complete-aso status -o (npm)'],
  ];
  console.log(`single executable (${(statSync(sea).size / 1e6).toFixed(1)} MB) against the npm install:`);
  for (const [label, exe, npm] of pairs) {
    const [a, b] = [results.get(exe)!, results.get(npm)!];
    console.log(
      `  ${label.padEnd(24)} ${a.toFixed(1).padStart(7)} ms vs ${b.toFixed(1).padStart(7)} ms = ${(a / b).toFixed(2)}x`,
    );
  }
}
