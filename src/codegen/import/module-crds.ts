import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateConfig } from '../model/config.ts';
import { groupOfType } from '../model/names.ts';
import { shortGroup } from '../model/types.ts';
import { configFile } from '../stages/load-config.ts';
import { importedKubernetesKinds, importedTypes } from './imported-types.ts';
import { CrdMakingFailed, madeCrdsDir } from './made-crds.ts';

/** The shipped schemas, whose hand-written config names the groups the operator gives some types. */
const schemasDir = new URL('../../../schemas', import.meta.url).pathname;

/** A folder of CRDs assembled for one import, removed by `dispose` once the import is done. */
export interface CrdFolder {
  readonly path: string;
  dispose(): void;
}

/**
 * The CRDs the schema import reads, made from the operator's Go module (made-crds.ts) for every group of
 * `types`, gathered into one folder of links named as the operator names its CRD files: the import then
 * reads them as it reads a folder of released CRDs, and needs no copy of the operator's release.
 */
export async function moduleCrdFolder(
  asoVersion: string,
  types: readonly string[] = importedTypes,
  progress?: (line: string) => void,
  options: { readonly groupsItHas?: boolean } = {},
): Promise<CrdFolder> {
  const config = validateConfig(parse(readFileSync(join(schemasDir, configFile), 'utf8')));
  const groups = [
    ...new Set([
      ...types.map((t) => groupOfType(config.groups, t)),
      ...(types === importedTypes
        ? importedKubernetesKinds.map((k) => shortGroup(k.split('/')[0] ?? '', config.groupSuffix))
        : []),
    ]),
  ].sort();
  const path = mkdtempSync(join(tmpdir(), 'aso-module-crds-'));
  try {
    for (const group of groups) {
      // An earlier release lacks the groups added since: with `groupsItHas`, those are left out.
      const dir = await madeCrdsDir(asoVersion, group, progress ? { progress } : {}).catch((error) => {
        if (options.groupsItHas && error instanceof CrdMakingFailed && error.stderr.includes('no API group'))
          return undefined;
        throw error;
      });
      if (dir === undefined) continue;
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml')))
        symlinkSync(join(dir, file), join(path, file));
    }
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    throw error;
  }
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}
