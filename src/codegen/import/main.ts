import { join, resolve } from 'node:path';
import { TransformationsNotConfigured } from './check-transformations.ts';
import { importSchemas } from './import-schemas.ts';
import { defaultOperatorGoDir, OperatorGoSourceMissing } from './operator-go.ts';
import { RealCrdMissing, RealCrdVersionMissing } from './real-crds.ts';
import { UnsupportedCrdShape } from './reverse.ts';

/*
 * `npm run schemas:import [CRD_FOLDER [GO_MODULE_FOLDER]]`: the shipped schemas of the imported types
 * rewritten from the operator's CRDs (default `../shared/real-aso-crds/v2.20.0`, beside the repository) and,
 * for status enum values, its Go module as the Go module cache holds it.
 */
const operatorVersion = 'v2.20.0';
const root = resolve(new URL('../../..', import.meta.url).pathname);
const crdDir = resolve(process.argv[2] ?? join(root, '../shared/real-aso-crds/v2.20.0'));
const operatorGoDir = resolve(process.argv[3] ?? defaultOperatorGoDir(operatorVersion));
try {
  const { written, skipped, goSource } = importSchemas({
    crdDir,
    schemasDir: join(root, 'schemas'),
    outDir: join(root, 'schemas'),
    operatorGoDir,
  });
  if (!goSource)
    process.stdout.write(
      `the operator's Go source is not at ${operatorGoDir}: status enum values kept from the schemas replaced\n`,
    );
  for (const w of written) process.stdout.write(`schemas/${w.file} <- ${w.crd} ${w.version}\n`);
  for (const s of skipped)
    process.stdout.write(`schemas/${s.file} kept as written: ${s.crd} does not serve ${s.version}\n`);
} catch (error) {
  if (
    error instanceof RealCrdMissing ||
    error instanceof RealCrdVersionMissing ||
    error instanceof UnsupportedCrdShape ||
    error instanceof TransformationsNotConfigured ||
    error instanceof OperatorGoSourceMissing
  ) {
    process.stderr.write(`schemas:import: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
