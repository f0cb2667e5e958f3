import { join, resolve } from 'node:path';
import { TransformationsNotConfigured } from './check-transformations.ts';
import { importSchemas } from './import-schemas.ts';
import { RealCrdMissing, RealCrdVersionMissing } from './real-crds.ts';
import { UnsupportedCrdShape } from './reverse.ts';

/*
 * `npm run schemas:import [CRD_FOLDER]`: the shipped schemas of the imported types rewritten from the
 * operator's CRDs (default `../shared/real-aso-crds/v2.20.0`, beside the repository).
 */
const root = resolve(new URL('../../..', import.meta.url).pathname);
const crdDir = resolve(process.argv[2] ?? join(root, '../shared/real-aso-crds/v2.20.0'));
try {
  const { written, skipped } = importSchemas({
    crdDir,
    schemasDir: join(root, 'schemas'),
    outDir: join(root, 'schemas'),
  });
  for (const w of written) process.stdout.write(`schemas/${w.file} <- ${w.crd} ${w.version}\n`);
  for (const s of skipped)
    process.stdout.write(`schemas/${s.file} kept as written: ${s.crd} does not serve ${s.version}\n`);
} catch (error) {
  if (
    error instanceof RealCrdMissing ||
    error instanceof RealCrdVersionMissing ||
    error instanceof UnsupportedCrdShape ||
    error instanceof TransformationsNotConfigured
  ) {
    process.stderr.write(`schemas:import: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
