import { lstatSync, readdirSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { SymlinkLoop, UnreadableManifest } from './errors.ts';

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

/**
 * Every file a `-f` value stands for, in kubectl's order: the file itself, or a folder's manifests (its
 * subfolders only with -R). Symlinks are followed, each real file and folder once, so a symlinked folder
 * that is no loop is read once and a loop back to a folder being walked is a {@link SymlinkLoop}, never
 * endless recursion. A path the system will not read, or a folder with no manifest in it, is an
 * {@link UnreadableManifest} naming it.
 */
export function manifestFilesOf(entry: string, recursive: boolean): string[] {
  const stat = statOf(entry);
  // A device would be read until it ends, which /dev/zero never does. A pipe is read as kubectl reads one
  // (how `-f <(...)` arrives, waiting for its writer), and so is stdin by any of its names, even a terminal.
  if ((stat.isCharacterDevice() || stat.isBlockDevice() || stat.isSocket()) && !isStdinPath(entry)) {
    throw new UnreadableManifest(
      entry,
      'ENOTREG',
      'a device or socket, not a file; give a file, a folder, a pipe, or - for stdin',
    );
  }
  if (!stat.isDirectory()) return [entry];
  const found: string[] = [];
  const root = realOf(entry);
  walk(entry, [root], { folders: new Set([root]), files: new Set() }, recursive, found);
  // kubectl refuses a folder with nothing to apply; passing it as "0 of 0 files" would let CI pass on nothing.
  if (found.length === 0) {
    const hint =
      !recursive && listOf(entry).some((name) => isFolder(path.join(entry, name)))
        ? ' (its subfolders are read only with -R)'
        : '';
    throw new UnreadableManifest(entry, 'ENOMANIFEST', `no .yaml, .yml or .json file in this folder${hint}`);
  }
  return found;
}

interface Seen {
  folders: Set<string>;
  files: Set<string>;
}

function walk(folder: string, ancestors: string[], seen: Seen, recursive: boolean, found: string[]): void {
  for (const name of listOf(folder)) {
    const full = path.join(folder, name);
    const isManifest = manifestExtensions.has(path.extname(name).toLowerCase());
    // Outside -R a subfolder is never entered, so only what could be read needs a stat.
    if (!recursive && !isManifest) continue;
    let stat: Stats;
    try {
      stat = statOf(full);
    } catch (error) {
      // What is neither named as a manifest nor a folder that can be entered is no input: passed over.
      if (isManifest) throw error;
      continue;
    }
    if (stat.isDirectory()) {
      if (!recursive) continue;
      const real = realOf(full);
      const ancestor = ancestors.indexOf(real);
      if (ancestor >= 0) throw new SymlinkLoop(full, ancestorPath(folder, ancestors.length - 1 - ancestor));
      if (seen.folders.has(real)) continue;
      seen.folders.add(real);
      walk(full, [...ancestors, real], seen, recursive, found);
    } else if (isManifest) {
      if (!stat.isFile()) {
        throw new UnreadableManifest(
          full,
          'ENOTREG',
          'not a regular file (a FIFO, socket or device); not read',
        );
      }
      const real = realOf(full);
      if (seen.files.has(real)) continue;
      seen.files.add(real);
      found.push(full);
    }
  }
}

function isStdinPath(entry: string): boolean {
  return entry === '/dev/stdin' || /^\/(dev|proc\/self)\/fd\/\d+$/.test(entry);
}

/** The folder `up` levels above `folder` on the walked path (the one a loop leads back to). */
function ancestorPath(folder: string, up: number): string {
  let at = folder;
  for (let i = 0; i < up; i++) at = path.dirname(at);
  return at;
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function statOf(file: string): Stats {
  try {
    return statSync(file);
  } catch (error) {
    throw unreadable(file, error);
  }
}

function realOf(file: string): string {
  try {
    return realpathSync(file);
  } catch (error) {
    throw unreadable(file, error);
  }
}

function listOf(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch (error) {
    throw unreadable(folder, error);
  }
}

const problems: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'symlink loop (too many levels of symbolic links)',
  ENOTDIR: 'not a directory: a part of the path is a file',
  EISDIR: 'is a directory',
  ENAMETOOLONG: 'file name too long',
};

/** The named error for a failed read of `file`: what the system said, in words, and a dangling symlink as one. */
export function unreadable(file: string, error: unknown): UnreadableManifest {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
  if (code === 'ENOENT') {
    const target = danglingTarget(file);
    if (target !== undefined) return new UnreadableManifest(file, code, `dangling symlink to ${target}`);
  }
  const problem =
    problems[code] ?? `cannot be read (${code}: ${(error as Error | undefined)?.message ?? ''})`;
  return new UnreadableManifest(file, code, problem);
}

function danglingTarget(file: string): string | undefined {
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(file), readlinkSync(file));
  } catch {
    return undefined;
  }
}
