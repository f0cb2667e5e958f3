import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crdArchiveSuffix } from '../src/lib/crds/crd-archive.ts';
import { crdAssetIndex, crdAssetName } from '../src/lib/crds/generated-crds.ts';

/**
 * The generated CRD archives as single-executable assets, as the product reads them
 * (src/lib/crds/generated-crds.ts): one asset per group, still compressed, and an index naming the groups
 * (written to `workDir`), since an executable cannot list its assets. Returns asset name -> file.
 */
export function crdArchiveAssets(crdDir: string, workDir: string): Record<string, string> {
  const groups = readdirSync(crdDir)
    .filter((name) => name.endsWith(crdArchiveSuffix))
    .map((name) => name.slice(0, -crdArchiveSuffix.length))
    .sort();
  if (groups.length === 0) throw new Error(`${crdDir} holds no CRD archives: run npm run generate`);
  const index = join(workDir, 'crds-index.txt');
  writeFileSync(index, `${groups.join('\n')}\n`);
  return {
    [crdAssetIndex]: index,
    ...Object.fromEntries(
      groups.map((group) => [crdAssetName(group), join(crdDir, `${group}${crdArchiveSuffix}`)]),
    ),
  };
}

/** The bytes the assets add to the executable. */
export function crdAssetBytes(assets: Record<string, string>): number {
  return Object.values(assets).reduce((sum, file) => sum + statSync(file).size, 0);
}
