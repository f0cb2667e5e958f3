import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { crdArchiveSuffix, decompressCrdYaml } from '../../lib/crds/crd-archive.ts';
import { isGenerated } from '../emit/code.ts';
import { stage } from '../stage.ts';

/** Where output goes, relative to the repository root. */
export const outputDir = 'generated';

/**
 * Writes every output file under `generated/` (only when its content changed), and deletes files that
 * carry the generated marker but were not produced this run. Files without the marker are never touched:
 * not deleted, and not overwritten either (a hand-written file at a generated path fails the run, naming
 * it, before anything is written). Needs every emit stage, so that a partial run never writes.
 */
export const writeOutput = stage({
  id: 'writeOutput',
  description: 'Write generated/ and delete stale generated files',
  needs: [
    'emitTypes',
    'emitConversionPlans',
    'emitRegistry',
    'emitTests',
    'emitArmPayloads',
    'emitResourceCatalog',
    'emitCrds',
    'emitReleaseCatalog',
  ],
  run: (state) => {
    const root = join(state.root, outputDir);
    const writes: Array<{ path: string; content: string | Uint8Array }> = [];
    for (const file of [...state.files.keys()].sort()) {
      const content = state.files.get(file) as string | Uint8Array;
      if (!isGenerated(textOf(file, content)))
        throw new Error(`generated/${file} lacks the generated marker`);
      const path = join(root, file);
      let current: Buffer | undefined;
      try {
        current = readFileSync(path);
      } catch {
        current = undefined;
      }
      if (current?.equals(typeof content === 'string' ? Buffer.from(content, 'utf8') : content)) continue;
      if (current !== undefined && !isGenerated(textOf(file, current)))
        throw new Error(
          `refusing to overwrite ${join(outputDir, file)}: it exists without the DO NOT EDIT marker, so it was not generated (move it away or delete it)`,
        );
      writes.push({ path, content });
    }
    for (const { path, content } of writes) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    for (const path of listFiles(root)) {
      const rel = relative(root, path);
      if (state.files.has(rel)) continue;
      if (isGenerated(textOf(path, readFileSync(path)))) rmSync(path);
    }
    removeEmptyDirs(root);
  },
});

/**
 * The text that carries a file's generated marker: a compressed CRD archive cannot hold a comment, so its
 * YAML does. A `.br` file that does not decompress was not written by the generator.
 */
function textOf(path: string, content: string | Uint8Array): string {
  if (typeof content === 'string') return content;
  if (!path.endsWith(crdArchiveSuffix)) return Buffer.from(content).toString('utf8');
  try {
    return decompressCrdYaml(content);
  } catch {
    return '';
  }
}

function listFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

function removeEmptyDirs(dir: string): boolean {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  let empty = true;
  for (const e of entries) {
    if (e.isDirectory() && removeEmptyDirs(join(dir, e.name))) continue;
    empty = false;
  }
  if (empty) rmdirSync(dir);
  return empty;
}
