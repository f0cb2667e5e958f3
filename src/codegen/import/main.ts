import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { earlierReleaseVersions } from './earlier-releases.ts';
import { ImportedTypeWithoutCrd, importSchemas } from './import-schemas.ts';
import { KubernetesKindNotFound } from './kubernetes-kinds.ts';
import { CrdMakerGoMissing, CrdMakingFailed } from './made-crds.ts';
import { type CrdFolder, moduleCrdFolder } from './module-crds.ts';
import { defaultOperatorGoDir, OperatorGoSourceMissing } from './operator-go.ts';
import { RealCrdMissing, RealCrdVersionMissing } from './real-crds.ts';
import { UnsupportedCrdShape } from './reverse.ts';

/*
 * `npm run schemas:import [CRD_FOLDER [GO_MODULE_FOLDER]]`: the shipped schemas of the imported types
 * rewritten from the operator's CRDs and, for status enum values, its Go module as the Go module cache holds
 * it. Without CRD_FOLDER the CRDs are made from that Go module, as the operator's build makes them
 * (module-crds.ts); a folder of released CRDs (`../shared/real-aso-crds/v2.20.0`) may be named instead.
 */
const operatorVersion = 'v2.20.0';

const root = resolve(new URL('../../..', import.meta.url).pathname);
const operatorGoDir = resolve(process.argv[3] ?? defaultOperatorGoDir(operatorVersion));
let folder: CrdFolder | undefined;
const earlierFolders: CrdFolder[] = [];
try {
  const named = process.argv[2];
  if (named === undefined) {
    folder = await moduleCrdFolder(operatorVersion);
    process.stdout.write(`CRDs made from the operator's Go module ${operatorVersion}\n`);
  }
  const crdDir = folder?.path ?? resolve(named ?? '');
  const earlierReleases = [];
  // An earlier release's CRDs: the folder beside a named one (`../shared/real-aso-crds/v2.18.0`) when there is
  // one, else made from its Go module.
  for (const version of earlierReleaseVersions) {
    let dir = join(dirname(crdDir), version);
    if (named === undefined || !existsSync(dir)) {
      const made = await moduleCrdFolder(version, undefined, undefined, { groupsItHas: true });
      earlierFolders.push(made);
      dir = made.path;
    }
    earlierReleases.push({ release: version, crdDir: dir, operatorGoDir: defaultOperatorGoDir(version) });
  }
  const { written, skipped, goSource } = importSchemas({
    crdDir,
    schemasDir: join(root, 'schemas'),
    outDir: join(root, 'schemas'),
    operatorGoDir,
    earlierReleases,
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
    error instanceof ImportedTypeWithoutCrd ||
    error instanceof KubernetesKindNotFound ||
    error instanceof RealCrdVersionMissing ||
    error instanceof UnsupportedCrdShape ||
    error instanceof OperatorGoSourceMissing ||
    error instanceof CrdMakerGoMissing ||
    error instanceof CrdMakingFailed
  ) {
    process.stderr.write(`schemas:import: ${error.message}\n`);
    process.exitCode = 1;
  } else throw error;
} finally {
  folder?.dispose();
  for (const made of earlierFolders) made.dispose();
}
