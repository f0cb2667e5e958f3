import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const importedPaths = /\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g;

/** Every import specifier of every TypeScript file under `dir`, with the file it appears in. */
function importsUnder(dir: string): { file: string; specifier: string }[] {
  const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  return files.flatMap((f) =>
    [...readFileSync(join(root, dir, f), 'utf8').matchAll(importedPaths)].map((m) => ({
      file: join(dir, f),
      specifier: (m[1] ?? m[2]) as string,
    })),
  );
}

/** The folder rules a newcomer relies on: what ships never reaches into the generator or the tests. */
describe('the repository layout', () => {
  it('keeps generated code and its test support independent of test/', () => {
    const offending = [...importsUnder('generated'), ...importsUnder('src')].filter((i) =>
      /(^|\/)\.\.\/(\.\.\/)*test\//.test(i.specifier),
    );
    expect(offending).toEqual([]);
  });

  it('keeps the shipped runtime free of the generator and the test support', () => {
    const shipped = [...importsUnder('src/lib'), ...importsUnder('src/commands')];
    expect(shipped.filter((i) => /\/(codegen|testing)\//.test(i.specifier))).toEqual([]);
  });
});
