import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../src/lib/atomic-write.ts';
import { FileWriteFailed } from '../../src/lib/file-write-failed.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-atomic-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('writeFilesAtomically', () => {
  it('rolls back the files already renamed when a later rename fails, leaving no temporary file', () => {
    const paths = ['a.yaml', 'b.yaml', 'c.yaml'].map((name, i) => {
      const path = join(dir, name);
      writeFileSync(path, `old ${i}\n`, { mode: 0o640 });
      return path;
    });
    const inodes = paths.map((path) => statSync(path).ino);
    let renames = 0;
    const failThird = (from: string, to: string): void => {
      if (from.endsWith('.tmp')) renames += 1;
      if (to === paths[2])
        throw Object.assign(new Error(`ENOSPC: no space left on device`), { code: 'ENOSPC' });
      renameSync(from, to);
    };
    let failure: unknown;
    try {
      writeFilesAtomically(
        paths.map((target, i) => ({ target, text: `new ${i}\n` })),
        { rename: failThird },
      );
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(FileWriteFailed);
    expect(failure).toMatchObject({
      exit: 'invalidInput',
      message: `${paths[2]}: cannot replace it (ENOSPC: no space left on device)`,
      hint: expect.stringContaining('no file was changed'),
    });
    expect(renames).toBe(3);
    expect(paths.map((path) => readFileSync(path, 'utf8'))).toEqual(['old 0\n', 'old 1\n', 'old 2\n']);
    expect(paths.map((path) => statSync(path).ino)).toEqual(inodes);
    expect(paths.map((path) => statSync(path).mode & 0o7777)).toEqual([0o640, 0o640, 0o640]);
    expect(readdirSync(dir).sort()).toEqual(['a.yaml', 'b.yaml', 'c.yaml']);
  });
});
