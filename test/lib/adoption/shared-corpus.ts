import { existsSync } from 'node:fs';
import path from 'node:path';

/** The shared real-data folder (../shared from the repo root), or undefined (with one visible line) when absent; under CI it must exist. */
export function sharedDir(sub: string): string | undefined {
  const dir = path.resolve(import.meta.dirname, '../../../../shared', sub);
  if (existsSync(dir)) return dir;
  if (process.env.CI === 'true') throw new Error(`${dir} is required under CI=true`);
  console.log(`skipping: ${dir} is absent`);
  return undefined;
}
