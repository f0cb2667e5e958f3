import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * `npm run bench:size`: issue 23's size budgets, measured on the working tree. generated/ and schemas/
 * together at most 60 MB in the repository, split by what each file is (so growth shows where it comes
 * from); the single executable at most 150 MB when `npm run package` has made it.
 */
const root = new URL('..', import.meta.url).pathname;
const budgetRepo = 60e6;
const budgetExecutable = 150e6;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : entry.isFile() ? [path] : [];
  });
}

/** What a generated file is, from its name: the rows of the table. */
function sortOf(path: string): string {
  if (path.includes('/generated/crds/')) return 'generated CRDs';
  if (path.includes('/schemas/')) return 'schemas';
  if (path.endsWith('.test.ts')) return 'generated tests';
  const name = basename(path, '.ts');
  return `generated ${name === 'conversion-plans' ? 'conversion plans' : name}`;
}

const bySort = new Map<string, { bytes: number; count: number }>();
let total = 0;
for (const path of [...files(join(root, 'generated')), ...files(join(root, 'schemas'))]) {
  const bytes = statSync(path).size;
  const row = bySort.get(sortOf(path)) ?? { bytes: 0, count: 0 };
  row.bytes += bytes;
  row.count += 1;
  bySort.set(sortOf(path), row);
  total += bytes;
}
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
for (const [sort, row] of [...bySort].sort(([, a], [, b]) => b.bytes - a.bytes))
  process.stdout.write(`${sort.padEnd(32)} ${mb(row.bytes).padStart(10)} in ${row.count} files\n`);
const repoOk = total <= budgetRepo;
process.stdout.write(
  `generated/ + schemas/: ${mb(total)} (budget ${mb(budgetRepo)})${repoOk ? '' : ' OVER'}\n`,
);
const executable = join(root, 'dist-package/kubectl-aso');
let executableOk = true;
if (existsSync(executable)) {
  const bytes = statSync(executable).size;
  executableOk = bytes <= budgetExecutable;
  process.stdout.write(
    `single executable: ${mb(bytes)} (budget ${mb(budgetExecutable)})${executableOk ? '' : ' OVER'}\n`,
  );
} else process.stdout.write('single executable: not built (npm run package)\n');
process.exitCode = repoOk && executableOk ? 0 : 1;
