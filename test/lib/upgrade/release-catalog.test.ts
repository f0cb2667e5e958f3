import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { releaseCatalog } from '../../../generated/releases.ts';
import {
  releaseCatalogFile,
  releaseTreesOfCatalog,
} from '../../../src/codegen/import/release-catalog-file.ts';
import { type ReleaseTrees, releaseTreesIn } from '../../../src/codegen/import/release-trees.ts';
import { releaseHop } from '../../../src/codegen/model/release-changes.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const neededBy = 'test/lib/upgrade/release-catalog.test.ts';
const real18 = sharedData('real-aso-crds/v2.18.0', neededBy);
const real20 = sharedData('real-aso-crds/v2.20.0', neededBy);

/**
 * The release catalog is made from the operator's Go module (`npm run releases:import`); the operator's
 * released CRDs of v2.18.0 and v2.20.0 are the referee: the catalog must say exactly what they say.
 */
describe.skipIf(!real18.present || !real20.present)(
  "the release catalog against the operator's released CRDs",
  () => {
    let real: Record<string, ReleaseTrees> = {};
    let catalog: Record<string, ReleaseTrees> = {};
    beforeAll(() => {
      real = { 'v2.18.0': releaseTreesIn(real18.path), 'v2.20.0': releaseTreesIn(real20.path) };
      catalog = releaseTreesOfCatalog(
        readFileSync(
          join(new URL('../../..', import.meta.url).pathname, 'schemas', releaseCatalogFile),
          'utf8',
        ),
      );
    }, 120_000);

    for (const release of ['v2.18.0', 'v2.20.0']) {
      it(`holds every kind of ${release} with the same versions, flags and property trees`, () => {
        const ours = catalog[release] ?? {};
        const theirs = real[release] ?? {};
        expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
        const differing = Object.keys(theirs).filter(
          (kind) => JSON.stringify(ours[kind]) !== JSON.stringify(theirs[kind]),
        );
        expect(differing).toEqual([]);
      });
    }

    it('ships the changes from v2.18.0 to v2.20.0 that the released CRDs show', () => {
      const shipped = releaseCatalog.hops.find((hop) => hop.from === 'v2.18.0' && hop.to === 'v2.20.0');
      const fromReal = releaseHop('v2.18.0', real['v2.18.0'] ?? {}, 'v2.20.0', real['v2.20.0'] ?? {});
      expect(shipped).toEqual(fromReal);
      // The facts the shared data's README states: 68 CRDs move their storage version, 19 kinds are new.
      expect(Object.values(fromReal.kinds).filter((changes) => changes.storage).length).toBe(68);
      expect(fromReal.addedKinds).toHaveLength(283 - 264);
      // The operator's release notes: v2.19 removes AKS v1api20240402preview.
      expect(fromReal.kinds['containerservice.azure.com/ManagedCluster']?.removedVersions).toEqual([
        'v1api20240402preview',
        'v1api20240402previewstorage',
      ]);
    });
  },
);
