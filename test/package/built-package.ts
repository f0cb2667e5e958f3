import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

/** What `npm run package` wrote, for the tests of the executable and the krew layout. */
export interface BuiltPackage {
  dir: string;
  executable: string;
  completion: string;
  archive: string;
  version: string;
  /** False when it has not been built and the tests skip (never under CI). */
  present: boolean;
}

/**
 * The package under test. Building it takes about a minute (and fetches Node once), more than the rest of a
 * test file, so `npm test` on a developer's machine tests the package `npm run package` last wrote and
 * skips, with one visible line, when there is none. Under CI (`CI=true`) it is never skipped:
 * {@link ensureBuiltPackage} builds it in the first test file that needs it, once per run.
 */
export function builtPackage(neededBy: string): BuiltPackage {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const dir = join(root, 'dist-package');
  const pkg = {
    dir,
    executable: join(dir, 'kubectl-aso'),
    completion: join(dir, 'kubectl_complete-aso'),
    archive: join(dir, `kubectl-aso_${version}_linux_amd64.tar.gz`),
    version,
  };
  const present = existsSync(pkg.archive) || process.env.CI === 'true';
  if (!present) process.stderr.write(`skipped: ${neededBy} needs ${pkg.archive}; run npm run package\n`);
  return { ...pkg, present };
}

/**
 * Under CI, builds the package unless this run already did: test files run side by side, so the build
 * holds a lock and the second file waits for the first's result instead of building again. The run's
 * `npm test` has already built dist/, which the packaging reads.
 */
export function ensureBuiltPackage(pkg: BuiltPackage): void {
  if (process.env.CI !== 'true') return;
  // Test files run in workers of one vitest process: its pid names this run.
  const stamp = join(root, '.local', `package-built-${process.ppid}`);
  mkdirSync(join(root, '.local'), { recursive: true });
  execFileSync(
    'flock',
    [
      join(root, '.local', 'package.lock'),
      'sh',
      '-c',
      `[ -f "${stamp}" ] && [ -f "${pkg.archive}" ] || { node scripts/package.ts && touch "${stamp}"; }`,
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

/**
 * A PATH on which the given executables are found and Node is not: one folder of links, removed when the
 * test ends. The machine's /usr/bin holds a node, so the system folders cannot simply be listed.
 */
export function pathWithoutNode(executables: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-nonode-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, target] of Object.entries(executables)) symlinkSync(target, join(dir, name));
  return dir;
}
