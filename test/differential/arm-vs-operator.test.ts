import { describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import { goToolchain, operatorConversionBinaries } from '../fixtures/operator-conversion.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import { armFiguresLine, compareKindArm, isArmKind } from './arm-vs-operator.ts';
import { loadSamples } from './samples.ts';

const neededBy = 'test/differential/arm-vs-operator.test.ts';
const go = goToolchain(neededBy);
const samplesDir = sharedData('aso-samples/v2.20.0', neededBy);
const crdDir = sharedData('real-aso-crds/v2.20.0', neededBy);

/** Random objects per API version and kind, beside the operator's samples. */
const randomPerVersion = 10;
const seed = process.env.ASO_ARM_SEED !== undefined ? Number(process.env.ASO_ARM_SEED) : Date.now() % 2 ** 31;

/**
 * The ARM body kubectl-aso predicts (adopt-check's desiredArmOf) against the body Azure Service Operator
 * v2.20.0's own ConvertToARM makes of the same object, for every ARM kind the core generates: the operator's
 * samples and random objects of every API version both serve, references and config maps resolved alike on
 * both sides, secrets filled in by the operator's side only where kubectl-aso says one goes. Every kind
 * agrees exactly on every body, save the named exclusions (Go's empty values; objects the operator cannot
 * read or whose references its admission refuses; unions with nothing set, which both sides refuse), each
 * counted and printed per kind.
 */
describe.skipIf(!go.present || !samplesDir.present || !crdDir.present)(
  'the ARM body agrees with the operator’s ConvertToARM',
  () => {
    const kinds = catalog.filter(isArmKind);
    it(`every ARM kind (${kinds.length}), samples and ${randomPerVersion} random objects per version, seed ${seed} (ASO_ARM_SEED=${seed} repeats it)`, async () => {
      process.stdout.write(`ARM differential: seed ${seed} (ASO_ARM_SEED=${seed} repeats it)\n`);
      await operatorConversionBinaries(kinds.map((entry) => entry.group));
      const samples = loadSamples(samplesDir.path);
      const failures: string[] = [];
      let agreeing = 0;
      let bodies = 0;
      for (const entry of kinds) {
        const figures = await compareKindArm(entry, samples, crdDir.path, randomPerVersion, seed);
        process.stdout.write(`${armFiguresLine(figures)}\n`);
        bodies += figures.compared;
        const clean = figures.disagreements.size === 0 && figures.refusals.length === 0;
        if (clean) agreeing++;
        else {
          for (const [pattern, d] of figures.disagreements)
            failures.push(
              `${figures.key} ${pattern}: ours ${JSON.stringify(d.ours)} operator ${JSON.stringify(d.operator)} (${d.object})`,
            );
          failures.push(...figures.refusals.map((r) => `${figures.key}: ${r}`));
        }
      }
      process.stdout.write(
        `ARM differential: ${agreeing} of ${kinds.length} kinds agree on every body (${bodies} objects)\n`,
      );
      expect(failures).toEqual([]);
    }, 900_000);
  },
);
