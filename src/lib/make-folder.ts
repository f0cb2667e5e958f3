import { mkdirSync, rmdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { FileWriteFailed, fsReason } from './file-write-failed.ts';

/**
 * Creates `dir` and its missing parents, returning those it created (outermost first) so a failed run can
 * remove them. Node's own `mkdir({recursive: true})` loops forever where `mkdir` answers ENOENT although
 * the parent exists (`/proc/x`); here each level is tried once.
 */
export function makeFolder(dir: string): string[] {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    let stats: Stats | undefined;
    try {
      stats = statSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new FileWriteFailed(at, fsReason(error));
    }
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw new FileWriteFailed(at, 'not a folder');
      break;
    }
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  const created: string[] = [];
  for (const folder of missing) {
    try {
      mkdirSync(folder);
      created.push(folder);
    } catch (error) {
      removeFolders(created);
      throw new FileWriteFailed(folder, `cannot create the folder (${fsReason(error)})`);
    }
  }
  return created;
}

/** Removes folders {@link makeFolder} created, innermost first; one not empty stays. */
export function removeFolders(created: readonly string[]): void {
  for (const folder of [...created].reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      // not empty or already gone: left as it is
    }
  }
}
