import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import { convert } from '../../src/lib/conversion/convert.ts';
import { goToolchain, operatorConversionBinaries } from '../fixtures/operator-conversion.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import { compareKind } from './compare-kind.ts';
import { kindsUnderTest } from './kinds-under-test.ts';
import { loadSamples, type Sample } from './samples.ts';

const neededBy = 'test/differential/operator-vs-convert.test.ts';
const go = goToolchain(neededBy);
const samplesDir = sharedData('aso-samples/v2.20.0', neededBy);
const crdDir = sharedData('real-aso-crds/v2.20.0', neededBy);

/**
 * kubectl-aso's convert() against Azure Service Operator v2.20.0's own conversions, on the operator's sample
 * manifests: every sample at a version both serve, to every other version both serve.
 */

/** This run's kinds: the core's 13 first kinds and a seeded sample of other groups (kinds-under-test.ts). */
const underTest = kindsUnderTest(catalog).map(({ entry }) => entry);

describe.skipIf(!go.present || !samplesDir.present || !crdDir.present)(
  'convert() agrees with the operator on its samples (properties both define)',
  () => {
    let samples: Sample[] = [];
    beforeAll(async () => {
      await operatorConversionBinaries(underTest.map((entry) => entry.group));
      samples = loadSamples(samplesDir.path);
    }, 1_800_000);

    for (const entry of underTest) {
      const versions = [...entry.versions.map((v) => v.version), ...entry.storageVersions];
      it(`${entry.group} ${entry.kind}`, async () => {
        const result = await compareKind(
          { group: entry.group, kind: entry.kind, versions },
          samples,
          crdDir.path,
        );
        process.stdout.write(
          `operator agreement: ${entry.kind}: ${result.agreed} of ${result.compared} conversions agree on ${result.leaves} values (shared versions: ${result.shared.join(', ') || 'none'})\n`,
        );
        // Every generated kind shares versions with the operator (test/codegen/real-crd-schemas.test.ts): none
        // shared means the comparison found no CRD to read, and would pass without comparing anything.
        expect(result.shared.length).toBeGreaterThan(0);
        expect(result.disagreements).toEqual([]);
      });
    }

    it('reports a disagreement when convert() gets a value wrong (the comparison can fail)', async () => {
      const storageAccount = catalog.find((entry) => entry.kind === 'StorageAccount')!;
      const versions = [...storageAccount.versions.map((v) => v.version), ...storageAccount.storageVersions];
      const wrong = (object: unknown, target: string) => {
        const converted = convert(object, target);
        return { ...converted, spec: { ...(converted.spec as object), location: 'nowhere' } };
      };
      const result = await compareKind(
        { group: storageAccount.group, kind: storageAccount.kind, versions },
        samples,
        crdDir.path,
        wrong,
      );
      expect(result.compared).toBeGreaterThan(0);
      // Objects stored by the wrong convert() carry its wrong value to both sides, which then agree.
      expect(result.agreed).toBeLessThan(result.compared);
      expect(result.disagreements.join('\n')).toMatch(/spec\.location: ours "nowhere" operator "/);
    });
  },
);
