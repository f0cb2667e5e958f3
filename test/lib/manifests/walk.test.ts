import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SymlinkLoop, UnreadableManifest } from '../../../src/lib/manifests/errors.ts';
import { manifestFilesOf } from '../../../src/lib/manifests/walk.ts';

function tree(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'walk-'));
  mkdirSync(path.join(dir, 'a'));
  writeFileSync(path.join(dir, 'a', 'x.yaml'), 'a: 1\n');
  writeFileSync(path.join(dir, 'a', 'notes.txt'), 'not a manifest\n');
  return dir;
}

describe('manifestFilesOf', () => {
  it('names a device given with -f (it would be read forever), and takes stdin by its /dev names', () => {
    for (const device of ['/dev/zero', '/dev/null'])
      expect(() => manifestFilesOf(device, false), device).toThrow(UnreadableManifest);
    expect(() => manifestFilesOf('/dev/zero', false)).toThrow(/a device or socket, not a file/);
    // Whatever stdin is here (a terminal, /dev/null, a pipe or closed), it is never refused as a device.
    expect(() => manifestFilesOf('/dev/stdin', false)).not.toThrow(/a device or socket/);
  });

  it('reads a symlinked folder and a symlinked file that are no loop once, by their first path', () => {
    const dir = tree();
    symlinkSync(path.join(dir, 'a'), path.join(dir, 'b'));
    symlinkSync(path.join(dir, 'a', 'x.yaml'), path.join(dir, 'a', 'y.yaml'));
    expect(manifestFilesOf(dir, true)).toEqual([path.join(dir, 'a', 'x.yaml')]);
    expect(manifestFilesOf(path.join(dir, 'a'), false)).toEqual([path.join(dir, 'a', 'x.yaml')]);
  });

  it('names a folder that holds no manifest: empty, text files only, or manifests only in subfolders without -R', () => {
    const dir = tree();
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    expect(() => manifestFilesOf(empty, true)).toThrow(
      `${empty}: no .yaml, .yml or .json file in this folder`,
    );
    writeFileSync(path.join(empty, 'notes.txt'), 'text\n');
    expect(() => manifestFilesOf(empty, false)).toThrow(UnreadableManifest);
    expect(() => manifestFilesOf(dir, false)).toThrow(
      `${dir}: no .yaml, .yml or .json file in this folder (its subfolders are read only with -R)`,
    );
    expect(manifestFilesOf(dir, true)).toEqual([path.join(dir, 'a', 'x.yaml')]);
  });

  it('names a symlink loop under -R, and does not follow it without -R', () => {
    const dir = tree();
    symlinkSync(dir, path.join(dir, 'a', 'up'));
    expect(() => manifestFilesOf(dir, true)).toThrow(SymlinkLoop);
    expect(() => manifestFilesOf(dir, true)).toThrow(
      `${path.join(dir, 'a', 'up')}: symlink loop: it leads back to ${dir}`,
    );
    expect(manifestFilesOf(path.join(dir, 'a'), false)).toEqual([path.join(dir, 'a', 'x.yaml')]);
  });

  it('names what cannot be read: a missing path, a file used as a folder, a dangling symlink', () => {
    const dir = tree();
    const codeOf = (entry: string, recursive = false): unknown => {
      try {
        manifestFilesOf(entry, recursive);
      } catch (error) {
        return error instanceof UnreadableManifest ? [error.code, error.message] : error;
      }
      return 'read';
    };
    expect(codeOf(path.join(dir, 'nope.yaml'))).toEqual([
      'ENOENT',
      `${path.join(dir, 'nope.yaml')}: no such file or directory`,
    ]);
    expect(codeOf(path.join(dir, 'a', 'x.yaml', 'z.yaml'))).toEqual([
      'ENOTDIR',
      expect.stringContaining('not a directory'),
    ]);
    symlinkSync(path.join(dir, 'gone'), path.join(dir, 'a', 'gone.yaml'));
    expect(codeOf(path.join(dir, 'a'))).toEqual([
      'ENOENT',
      `${path.join(dir, 'a', 'gone.yaml')}: dangling symlink to ${path.join(dir, 'gone')}`,
    ]);
  });
});
