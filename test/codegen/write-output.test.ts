import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedMarker } from '../../src/codegen/emit/code.ts';
import { emitStages } from '../../src/codegen/pipeline.ts';
import { runStages } from '../../src/codegen/runner.ts';
import { stage } from '../../src/codegen/stage.ts';
import { writeOutput } from '../../src/codegen/stages/write-output.ts';
import { newState } from '../../src/codegen/state.ts';
import { compressCrdYaml, decompressCrdYaml } from '../../src/lib/crds/crd-archive.ts';

const emitStageIds = [
  'emitTypes',
  'emitConversionPlans',
  'emitRegistry',
  'emitTests',
  'emitArmPayloads',
  'emitResourceCatalog',
  'emitCrds',
  'emitReleaseCatalog',
];
const ready = emitStageIds.map((id) => stage({ id, description: 'stand-in', needs: [], run: () => {} }));

describe('writing generated/', () => {
  it('writes new files, leaves unchanged ones alone, and deletes only stale files carrying the marker', () => {
    const root = mkdtempSync(join(tmpdir(), 'aso-gen-'));
    mkdirSync(join(root, 'generated/old'), { recursive: true });
    writeFileSync(join(root, 'generated/old/stale.ts'), `// ${generatedMarker}\nexport {};\n`);
    writeFileSync(join(root, 'generated/old/handwritten.ts'), 'export const kept = 1;\n');
    const run = () => {
      const state = newState(root);
      state.files.set('a/types.ts', `// ${generatedMarker}\nexport const a = 1;\n`);
      runStages([...ready, writeOutput], state, () => {});
    };
    run();
    expect(readFileSync(join(root, 'generated/a/types.ts'), 'utf8')).toContain('export const a = 1;');
    expect(() => statSync(join(root, 'generated/old/stale.ts'))).toThrow();
    expect(readFileSync(join(root, 'generated/old/handwritten.ts'), 'utf8')).toBe('export const kept = 1;\n');
    const before = statSync(join(root, 'generated/a/types.ts')).mtimeMs;
    run();
    expect(statSync(join(root, 'generated/a/types.ts')).mtimeMs).toBe(before);
  });

  it('reads the marker of a compressed CRD archive inside it: writes it once, deletes it when stale, keeps a foreign one', () => {
    const root = mkdtempSync(join(tmpdir(), 'aso-gen-'));
    mkdirSync(join(root, 'generated/crds'), { recursive: true });
    const marked = (body: string) => compressCrdYaml(`# ${generatedMarker}\n${body}`);
    writeFileSync(join(root, 'generated/crds/gone.azure.com.yaml.br'), marked('---\n'));
    writeFileSync(join(root, 'generated/crds/mine.azure.com.yaml.br'), compressCrdYaml('---\nkind: Mine\n'));
    const run = () => {
      const state = newState(root);
      state.files.set('crds/a.azure.com.yaml.br', marked('---\nkind: A\n'));
      runStages([...ready, writeOutput], state, () => {});
    };
    run();
    expect(decompressCrdYaml(readFileSync(join(root, 'generated/crds/a.azure.com.yaml.br')))).toContain(
      'kind: A',
    );
    expect(() => statSync(join(root, 'generated/crds/gone.azure.com.yaml.br'))).toThrow();
    expect(statSync(join(root, 'generated/crds/mine.azure.com.yaml.br')).isFile()).toBe(true);
    const before = statSync(join(root, 'generated/crds/a.azure.com.yaml.br')).mtimeMs;
    run();
    expect(statSync(join(root, 'generated/crds/a.azure.com.yaml.br')).mtimeMs).toBe(before);
    const unmarked = newState(root);
    unmarked.files.set('crds/b.azure.com.yaml.br', compressCrdYaml('---\nkind: B\n'));
    expect(() => runStages([...ready, writeOutput], unmarked, () => {})).toThrow(
      /lacks the generated marker/,
    );
  });

  it('refuses to write a file without the marker', () => {
    const state = newState(mkdtempSync(join(tmpdir(), 'aso-gen-')));
    state.files.set('x.ts', 'export {};\n');
    expect(() => runStages([...ready, writeOutput], state, () => {})).toThrow(
      /writeOutput.*lacks the generated marker/,
    );
  });

  it('needs every emit stage of the pipeline', () => {
    expect([...writeOutput.needs].sort()).toEqual(emitStages.map((s) => s.id).sort());
    const state = newState(mkdtempSync(join(tmpdir(), 'aso-gen-')));
    expect(() => runStages([...ready.slice(1), writeOutput], state, () => {})).toThrow(
      /writeOutput.*prerequisites not run before it: emitTypes/,
    );
  });

  it('refuses to overwrite a file at a generated path that lacks the marker, writing nothing', () => {
    const root = mkdtempSync(join(tmpdir(), 'aso-gen-'));
    mkdirSync(join(root, 'generated/a'), { recursive: true });
    writeFileSync(join(root, 'generated/a/types.ts'), 'export const mine = 1;\n');
    const state = newState(root);
    state.files.set('a/types.ts', `// ${generatedMarker}\nexport const a = 1;\n`);
    state.files.set('b/types.ts', `// ${generatedMarker}\nexport const b = 1;\n`);
    expect(() => runStages([...ready, writeOutput], state, () => {})).toThrow(
      /refusing to overwrite generated\/a\/types\.ts: it exists without the DO NOT EDIT marker/,
    );
    expect(readFileSync(join(root, 'generated/a/types.ts'), 'utf8')).toBe('export const mine = 1;\n');
    expect(() => statSync(join(root, 'generated/b/types.ts'))).toThrow();
  });
});
