import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeAtomically } from '../../lib/atomic-write.ts';
import type { ReleaseOperator } from '../../lib/upgrade/release-types.ts';
import { CrdMakerGoMissing, CrdMakingFailed, madeCrdsDir } from './made-crds.ts';
import { defaultOperatorGoDir } from './operator-go.ts';
import { compareReleases, releaseCatalogFile, releaseCatalogText } from './release-catalog-file.ts';
import { releaseOperatorIn } from './release-operator.ts';
import { type ReleaseTrees, releaseTreesIn } from './release-trees.ts';

/*
 * `npm run releases:import [RELEASE ...]`: the release catalog (`schemas/releases/catalog.json`), each
 * release's CRDs made from the operator's Go module as its build makes them (made-crds.ts) and reduced to
 * what an upgrade check compares: per kind the served and storage versions and each version's property tree;
 * and per release what its operator does by itself after an upgrade (release-operator.ts).
 * Without arguments, the releases below: every ASO v2 release the Go module proxy serves from v2.13.0 on
 * (it answers for v2.0.0 to v2.9.0, v2.11.0, v2.13.0, v2.18.0 and v2.20.0, and refuses the others).
 */
const defaultReleases = ['v2.13.0', 'v2.18.0', 'v2.20.0'];
const root = resolve(new URL('../../..', import.meta.url).pathname);
const releases = (process.argv.length > 2 ? process.argv.slice(2) : defaultReleases).sort(compareReleases);

try {
  const catalog: Record<string, ReleaseTrees> = {};
  const operators: Record<string, ReleaseOperator> = {};
  for (const release of releases) {
    // The first group made downloads the module, whose api/ folder then lists the release's groups.
    await madeCrdsDir(release, 'resources');
    const api = join(defaultOperatorGoDir(release), 'api');
    const groups = readdirSync(api)
      .filter((entry) => statSync(join(api, entry)).isDirectory())
      .sort();
    const trees: ReleaseTrees = {};
    for (const group of groups) Object.assign(trees, releaseTreesIn(await madeCrdsDir(release, group)));
    catalog[release] = trees;
    operators[release] = releaseOperatorIn(defaultOperatorGoDir(release));
    process.stdout.write(
      `${release}: ${Object.keys(trees).length} kinds in ${groups.length} groups; ` +
        `the operator cleans stored versions itself: ${operators[release]?.cleansStoredVersions ? 'yes' : 'no'}\n`,
    );
  }
  const target = join(root, 'schemas', releaseCatalogFile);
  mkdirSync(dirname(target), { recursive: true });
  writeAtomically(target, releaseCatalogText(catalog, operators));
  process.stdout.write(`schemas/${releaseCatalogFile}: ${releases.join(', ')}\n`);
} catch (error) {
  if (error instanceof CrdMakerGoMissing || error instanceof CrdMakingFailed) {
    process.stderr.write(`releases:import: ${error.message}\n`);
    process.exitCode = 1;
  } else throw error;
}
