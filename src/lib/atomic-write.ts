import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { FileWriteFailed, fsReason } from './file-write-failed.ts';
import { makeFolder, removeFolders } from './make-folder.ts';

/** One file to write: its path, its new text, and the file whose mode it takes (default: the file itself). */
export interface FileWrite {
  target: string;
  text: string;
  modeFrom?: string;
}

/** The file-system call tests replace to make a rename fail after others have succeeded. */
export interface WriteSeams {
  rename?: (from: string, to: string) => void;
}

function removeQuietly(file: string | undefined): void {
  if (file === undefined) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** A write as it will be done: where the bytes go (through a link), and the file it replaces, if any. */
interface PlannedWrite {
  /** The path the user named, for messages. */
  named: string;
  /** The real file written (a symlink's target), so the link itself stays a link. */
  real: string;
  text: string;
  mode: number | undefined;
  existing: Stats | undefined;
  /** Who the new file must belong to, when that is not the process itself. */
  owner: { uid: number; gid: number } | undefined;
}

function processGroups(): number[] {
  return [process.getegid?.() ?? -1, ...(process.getgroups?.() ?? [])];
}

/**
 * Resolves and checks one write before anything is staged: a link is written through (its target, in its
 * target's folder), a folder or special file is refused, and an existing file must be writable by the
 * user and keep its owner and group (only root, or its owner in its group, can give them back to the new
 * file, so anyone else is refused rather than taking the file over).
 */
function plan(write: FileWrite): PlannedWrite {
  let real = path.resolve(write.target);
  let existing: Stats | undefined;
  try {
    const link = lstatSync(real);
    if (link.isSymbolicLink()) {
      try {
        real = realpathSync(real);
      } catch (error) {
        throw new FileWriteFailed(write.target, `a link that cannot be followed (${fsReason(error)})`);
      }
    }
    existing = statSync(real);
  } catch (error) {
    if (error instanceof FileWriteFailed) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new FileWriteFailed(write.target, fsReason(error));
  }
  let owner: PlannedWrite['owner'];
  if (existing !== undefined) {
    if (existing.isDirectory()) throw new FileWriteFailed(write.target, 'is a folder');
    if (!existing.isFile()) throw new FileWriteFailed(write.target, 'not a regular file');
    try {
      accessSync(real, constants.W_OK);
    } catch (error) {
      throw new FileWriteFailed(write.target, `not writable by this user (${fsReason(error)}); not replaced`);
    }
    const uid = process.geteuid?.() ?? 0;
    if (uid !== 0 && (existing.uid !== uid || !processGroups().includes(existing.gid))) {
      throw new FileWriteFailed(
        write.target,
        `owned by ${existing.uid}:${existing.gid}; replacing it as ${uid} would change its owner, so it is not replaced`,
      );
    }
    if (existing.uid !== uid || existing.gid !== (process.getegid?.() ?? existing.gid)) {
      owner = { uid: existing.uid, gid: existing.gid };
    }
  }
  let mode: number | undefined;
  try {
    mode = statSync(write.modeFrom ?? real).mode & 0o7777;
  } catch {
    // a new file: no mode to keep
  }
  return { named: write.target, real, text: write.text, mode, existing, owner };
}

/** The staged state of one write: its temporary file and a second name for the file it replaces. */
interface Staged {
  write: PlannedWrite;
  temporary: string;
  original: string | undefined;
}

function stage(write: PlannedWrite, suffix: string): Staged {
  const folder = path.dirname(write.real);
  const base = `.${path.basename(write.real)}.${suffix}`;
  const temporary = path.join(folder, `${base}.tmp`);
  let fd: number;
  try {
    // a new file (no mode to keep) is created as any file the user creates, under the umask
    fd = openSync(temporary, 'wx', write.mode === undefined ? 0o666 : 0o600);
  } catch (error) {
    throw new FileWriteFailed(write.named, `cannot write a temporary file in ${folder} (${fsReason(error)})`);
  }
  const staged: Staged = { write, temporary, original: undefined };
  try {
    const bytes = Buffer.from(write.text);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
    // chown before chmod: a change of owner clears the setuid and setgid bits
    if (write.owner !== undefined) fchownSync(fd, write.owner.uid, write.owner.gid);
    if (write.mode !== undefined) fchmodSync(fd, write.mode);
  } catch (error) {
    closeSync(fd);
    removeQuietly(temporary);
    throw new FileWriteFailed(write.named, `cannot write it (${fsReason(error)})`);
  }
  closeSync(fd);
  if (write.existing !== undefined) {
    // A second name for the file being replaced, to rename back if a later file of the run fails.
    const original = path.join(folder, `${base}.orig`);
    try {
      try {
        linkSync(write.real, original);
      } catch {
        copyFileSync(write.real, original, constants.COPYFILE_EXCL);
      }
      staged.original = original;
    } catch (error) {
      removeQuietly(temporary);
      removeQuietly(original);
      throw new FileWriteFailed(write.named, `cannot keep the original for a rollback (${fsReason(error)})`);
    }
  }
  return staged;
}

/**
 * Writes several files all or none: every target is checked (writable, owner and group it can keep, not
 * a folder), every new text is written to a temporary file beside its target with the target's exact
 * mode (special bits included) and owner, and only then is each renamed over its target. When a rename
 * fails after others succeeded, those are rolled back from second names kept for the originals, so a
 * failed run changes no file and leaves no temporary file. A link is written through, never replaced;
 * the same real file named twice with the same text is written once. Returns the real paths written.
 */
export function writeFilesAtomically(writes: readonly FileWrite[], seams: WriteSeams = {}): string[] {
  const rename = seams.rename ?? renameSync;
  const planned: PlannedWrite[] = [];
  const byReal = new Map<string, PlannedWrite>();
  for (const write of writes) {
    const next = plan(write);
    const seen = byReal.get(next.real);
    if (seen !== undefined) {
      if (seen.text !== next.text) {
        throw new FileWriteFailed(next.named, `is also ${seen.named}, which gets another text`);
      }
      continue;
    }
    byReal.set(next.real, next);
    planned.push(next);
  }
  const createdFolders: string[] = [];
  const staged: Staged[] = [];
  const suffix = randomBytes(6).toString('hex');
  const undo = (): void => {
    for (const one of staged) {
      removeQuietly(one.temporary);
      removeQuietly(one.original);
    }
    removeFolders(createdFolders);
  };
  try {
    for (const write of planned) {
      if (write.existing === undefined) createdFolders.push(...makeFolder(path.dirname(write.real)));
      staged.push(stage(write, suffix));
    }
  } catch (error) {
    undo();
    throw error;
  }
  const renamed: Staged[] = [];
  for (const one of staged) {
    try {
      rename(one.temporary, one.write.real);
      renamed.push(one);
    } catch (error) {
      const notRestored: string[] = [];
      for (const done of renamed.reverse()) {
        try {
          if (done.original !== undefined) rename(done.original, done.write.real);
          else unlinkSync(done.write.real);
        } catch {
          notRestored.push(done.write.named);
        }
      }
      undo();
      throw new FileWriteFailed(
        one.write.named,
        `cannot replace it (${fsReason(error)})`,
        notRestored.length === 0
          ? undefined
          : `the files written before it could not all be restored: ${notRestored.join(', ')} hold the converted text`,
      );
    }
  }
  for (const one of staged) removeQuietly(one.original);
  return staged.map((one) => one.write.real);
}

/**
 * Writes `text` to `target` through a temporary file in the same folder and a rename, so a reader (or a
 * crash) sees the old file or the new one, never a part. The file takes the mode of `modeFrom` (the file
 * it replaces or was converted from) when that exists. See {@link writeFilesAtomically}.
 */
export function writeAtomically(target: string, text: string, modeFrom?: string): void {
  writeFilesAtomically([{ target, text, ...(modeFrom !== undefined ? { modeFrom } : {}) }]);
}
