import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CrdMakerGoMissing, CrdMakingFailed, madeCrdsDir } from '../../../src/codegen/import/made-crds.ts';
import { goToolchainPresent } from '../../fixtures/go-module.ts';
import { randomFrom } from '../../fixtures/seeded-random.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const asoVersion = 'v2.20.0';
const testFile = 'test/codegen/import/made-crds.test.ts';
const realCrds = sharedData(`real-aso-crds/${asoVersion}`, testFile);
const goPresent = realCrds.present && goToolchainPresent(testFile, 'src/codegen/import/crd-maker');

/**
 * A fixed seed by default, so a plain run is repeatable; any group fits the time budget (the largest,
 * network with 55 CRDs, is made in about 12 s once the tool is built).
 */
const seed = process.env.ASO_CRD_SEED ? Number(process.env.ASO_CRD_SEED) : 23;

/** The API groups of the real CRDs, from their file names (`network.frontdoor.azure.com_frontdoors.yaml`). */
function realGroups(dir: string): string[] {
  const groups = new Set(readdirSync(dir).map((file) => file.slice(0, file.indexOf('.azure.com_'))));
  return [...groups].sort();
}

function filesOfGroup(dir: string, group: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.startsWith(`${group}.azure.com_`) && file.endsWith('.yaml'))
    .sort();
}

const readYaml = (path: string): unknown => parse(readFileSync(path, 'utf8'));

describe("the operator's CRDs made from its Go module", () => {
  const groups = realCrds.present ? realGroups(realCrds.path) : [];
  const others = groups.filter((group) => group !== 'resources');
  const picked = others[Math.floor(randomFrom(seed)() * others.length)] ?? 'resources';

  for (const group of ['resources', picked]) {
    it.runIf(goPresent)(
      `makes the ${group} group's CRDs equal to the operator's released ones`,
      async () => {
        if (group === picked) {
          console.log(
            `made-crds: second group ${group} from seed ${seed} (replay with ASO_CRD_SEED=${seed})`,
          );
        }
        const made = await madeCrdsDir(asoVersion, group);
        const realFiles = filesOfGroup(realCrds.path, group);
        expect(realFiles.length).toBeGreaterThan(0);
        // Every released CRD of the group is made, and nothing else.
        expect(filesOfGroup(made, group)).toEqual(realFiles);
        expect(readdirSync(made).filter((file) => file.endsWith('.yaml'))).toEqual(realFiles);
        for (const file of realFiles) {
          // Parsed, so that only content counts; the labels the operator's kustomize config adds are part of it.
          expect(readYaml(join(made, file)), file).toEqual(readYaml(join(realCrds.path, file)));
        }
      },
      600_000,
    );
  }

  it.runIf(goPresent)(
    'names the group and the step when a group is not in the module',
    async () => {
      const error = await madeCrdsDir(asoVersion, 'nosuchgroup', { progress: () => {} }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CrdMakingFailed);
      expect(error).toMatchObject({ group: 'nosuchgroup', step: 'generate' });
      expect((error as CrdMakingFailed).message).toContain('no API group "nosuchgroup"');
    },
    600_000,
  );
});

describe('making CRDs without Go', () => {
  const emptyCache = mkdtempSync(join(tmpdir(), 'made-crds-'));
  afterAll(() => rmSync(emptyCache, { recursive: true, force: true }));

  it('raises CrdMakerGoMissing when go is not on PATH and nothing is cached', async () => {
    const env = { ...process.env, PATH: '/usr/bin:/bin', KUBECTL_ASO_CACHE: emptyCache };
    const error = await madeCrdsDir(asoVersion, 'resources', { env, progress: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CrdMakerGoMissing);
  });
});
