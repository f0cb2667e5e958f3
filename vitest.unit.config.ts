import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const root = dirname(new URL(import.meta.url).pathname);
const importPattern = /\bfrom\s+'(\.{1,2}\/[^']+)'|\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

/** Whether a test file reaches the control plane: it imports, directly or through helpers, the plane's fixtures. */
function needsPlane(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const path = relative(root, file);
  if (path === join('test', 'fixtures', 'cluster.ts') || path.startsWith(join('test', 'control-plane'))) {
    return true;
  }
  if (!path.startsWith('test') || !file.endsWith('.ts')) return false;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  for (const match of source.matchAll(importPattern)) {
    if (needsPlane(resolve(dirname(file), (match[1] ?? match[2]) as string), seen)) return true;
  }
  return false;
}

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(dir, name));
}

/**
 * The tests that need no control plane (`npm run test:unit`): every test file that does not reach
 * `test/fixtures/cluster.ts` or `test/control-plane/`, found by following imports, so a new test is
 * sorted by what it uses rather than by a list to keep up to date. Tests that run `bin/kubectl-aso` need a
 * build, which the npm script does first.
 */
export default defineConfig({
  test: {
    include: [...testFiles('test'), ...testFiles('generated')].filter(
      (file) => !needsPlane(join(root, file)),
    ),
    testTimeout: 60_000,
    pool: 'forks',
  },
});
