import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Packs `files` (names inside `dir`) into a .tar.gz at the archive's top level, as krew's `files` rules
 * expect. Names are sorted and owners, times and gzip's header fixed, so the same inputs give the same
 * bytes. Written beside the target and renamed, so a failed build never leaves half an archive.
 */
export function writeArchive(dir: string, files: string[], archive: string): string {
  const tar = execFileSync(
    'tar',
    [
      '--sort=name',
      '--mtime=@0',
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '-C',
      dir,
      '-cf',
      '-',
      ...files,
    ],
    { maxBuffer: 1 << 30 },
  );
  const gz = execFileSync('gzip', ['-n', '-9'], { input: tar, maxBuffer: 1 << 30 });
  writeFileSync(`${archive}.tmp`, gz);
  renameSync(`${archive}.tmp`, archive);
  return sha256Of(archive);
}

/** The hex sha256 of a file, as krew checks it. */
export function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
