import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedMarker } from '../../src/codegen/emit/code.ts';
import { runStages } from '../../src/codegen/runner.ts';
import { stage } from '../../src/codegen/stage.ts';
import { writeOutput } from '../../src/codegen/stages/write-output.ts';
import { newState } from '../../src/codegen/state.ts';

const ready = stage({
  id: 'emitRegistry',
  description: 'stand-in for the emit stages',
  needs: [],
  run: () => {},
});

describe('writing generated/', () => {
  it('writes new files, leaves unchanged ones alone, and deletes only stale files carrying the marker', () => {
    const root = mkdtempSync(join(tmpdir(), 'aso-gen-'));
    mkdirSync(join(root, 'generated/old'), { recursive: true });
    writeFileSync(join(root, 'generated/old/stale.ts'), `// ${generatedMarker}\nexport {};\n`);
    writeFileSync(join(root, 'generated/old/handwritten.ts'), 'export const kept = 1;\n');
    const run = () => {
      const state = newState(root);
      state.files.set('a/types.ts', `// ${generatedMarker}\nexport const a = 1;\n`);
      runStages([ready, writeOutput], state, () => {});
    };
    run();
    expect(readFileSync(join(root, 'generated/a/types.ts'), 'utf8')).toContain('export const a = 1;');
    expect(() => statSync(join(root, 'generated/old/stale.ts'))).toThrow();
    expect(readFileSync(join(root, 'generated/old/handwritten.ts'), 'utf8')).toBe('export const kept = 1;\n');
    const before = statSync(join(root, 'generated/a/types.ts')).mtimeMs;
    run();
    expect(statSync(join(root, 'generated/a/types.ts')).mtimeMs).toBe(before);
  });

  it('refuses to write a file without the marker', () => {
    const state = newState(mkdtempSync(join(tmpdir(), 'aso-gen-')));
    state.files.set('x.ts', 'export {};\n');
    expect(() => runStages([ready, writeOutput], state, () => {})).toThrow(
      /writeOutput.*lacks the generated marker/,
    );
  });
});
