import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `text` to `target` through a temporary file in the same folder and a rename, so a reader (or a
 * crash) sees the old file or the new one, never a part. The file takes the permissions of `modeFrom`
 * (the file it replaces or was converted from) when that exists.
 */
export function writeAtomically(target: string, text: string, modeFrom: string = target): void {
  const folder = path.dirname(target);
  mkdirSync(folder, { recursive: true });
  let mode = 0o644;
  try {
    mode = statSync(modeFrom).mode & 0o777;
  } catch {
    // a new file: the default mode
  }
  const temporary = path.join(folder, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { mode, flag: 'wx' });
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
