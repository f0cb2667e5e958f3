// `npm run bench:migrate-manifests [-- --objects N]`: peak memory and time of `kubectl aso migrate -f FILE
// --to latest` (converted YAML to stdout, then `--diff`, then `-o json`) over one file of N ResourceGroups
// (default 50,000, about 10 MB) stored at an alpha version, so that every document changes. The baseline,
// measured in the same run on the same file: reading every document's tree into memory at once
// (yaml's parseAllDocuments with source tokens kept, what migrate -f did before it went document by
// document). Prints each run's peak RSS (GNU time), its ratio to the baseline, and the target (<= 400 MB).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const bin = join(root, 'bin/kubectl-aso');
const args = process.argv.slice(2);
const objects = Number(args[args.indexOf('--objects') + 1] ?? 50_000) || 50_000;
const targetMb = 400;

if (!existsSync('/usr/bin/time')) {
  process.stderr.write('bench:migrate-manifests needs GNU time (/usr/bin/time) to read peak RSS\n');
  process.exit(2);
}

/** N small ResourceGroups at the alpha API version, one document each. */
function manifest(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(
      `apiVersion: resources.azure.com/v1alpha1api20200601\nkind: ResourceGroup\nmetadata:\n` +
        `  name: rg-${String(i).padStart(6, '0')}\n  namespace: team-${i % 50}\n  labels:\n    app: web\n` +
        `spec:\n  location: westeurope\n  tags:\n    owner: platform\n---\n`,
    );
  }
  return parts.join('');
}

/** Runs node with `argv` under GNU time: wall time and peak RSS, output discarded. */
function measured(argv: string[]): Promise<{ ms: number; rssMb: number; code: number }> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, ...argv], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const text = Buffer.concat(stderr).toString('utf8').trim();
      done({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        rssMb: Number(text.split('\n').at(-1)) / 1024,
        code: code ?? -1,
      });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'bench-migrate-manifests-'));
try {
  const file = join(dir, 'groups.yaml');
  const text = manifest(objects);
  writeFileSync(file, text);
  const baselineScript =
    "import { readFileSync } from 'node:fs'; import { parseAllDocuments } from 'yaml';" +
    `const docs = parseAllDocuments(readFileSync(${JSON.stringify(file)}, 'utf8'), { keepSourceTokens: true });` +
    'const values = docs.map((d) => d.toJS()); if (values.length === 0) process.exit(1);';
  const baseline = await measured(['--input-type=module', '-e', baselineScript]);
  const lines = [
    `file: ${objects} objects, ${(text.length / 1e6).toFixed(1)} MB`,
    `baseline (every document's tree at once): peak RSS ${baseline.rssMb.toFixed(0)} MB, ${Math.round(baseline.ms)} ms`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let worst = 0;
  for (const [name, extra, expected] of [
    ['to stdout', [], 0],
    ['--diff', ['--diff'], 23],
    ['-o json', ['-o', 'json'], 0],
  ] as const) {
    const run = await measured([bin, 'migrate', '-f', file, '--to', 'latest', ...extra]);
    if (run.code !== expected) throw new Error(`migrate -f ${name} exited ${run.code}, expected ${expected}`);
    worst = Math.max(worst, run.rssMb);
    process.stdout.write(
      `migrate -f ${name}: peak RSS ${run.rssMb.toFixed(0)} MB (${(run.rssMb / baseline.rssMb).toFixed(2)}x the baseline), ${Math.round(run.ms)} ms\n`,
    );
  }
  process.stdout.write(
    `worst peak RSS ${worst.toFixed(0)} MB: ${worst <= targetMb ? 'meets' : 'MISSES'} the target of <= ${targetMb} MB\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
