import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importSchemas } from '../../../src/codegen/import/import-schemas.ts';
import { RealCrdMissing } from '../../../src/codegen/import/real-crds.ts';
import { sharedData } from '../../fixtures/shared-data.ts';
import { repoRoot } from '../support.ts';

const real = sharedData(
  'real-aso-crds/v2.20.0',
  'test/codegen/import/schemas-import.test.ts (schema import)',
);
const schemasDir = join(repoRoot, 'schemas');
const scratch = mkdtempSync(join(tmpdir(), 'schemas-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm run schemas:import', () => {
  it.runIf(real.present)('writes exactly the shipped schemas, byte for byte, on every run', () => {
    const first = importSchemas({ crdDir: real.path, schemasDir, outDir: join(scratch, 'first') });
    const second = importSchemas({ crdDir: real.path, schemasDir, outDir: join(scratch, 'second') });
    expect(first.written.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
    for (const { file } of first.written) {
      const shipped = readFileSync(join(schemasDir, file), 'utf8');
      expect(readFileSync(join(scratch, 'first', file), 'utf8'), `${file} differs from its import`).toBe(
        shipped,
      );
      expect(readFileSync(join(scratch, 'second', file), 'utf8')).toBe(shipped);
    }
  });

  it('names the folder when the real CRDs are missing', () => {
    const missing = join(scratch, 'no-such-crds');
    expect(() => importSchemas({ crdDir: missing, schemasDir, outDir: join(scratch, 'never') })).toThrow(
      RealCrdMissing,
    );
    expect(() => importSchemas({ crdDir: missing, schemasDir, outDir: join(scratch, 'never') })).toThrow(
      missing,
    );
  });
});
