import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import { convert } from '../../src/lib/conversion/convert.ts';
import { propertySeed } from '../../src/testing/conversion-support.ts';
import { goToolchain, operatorConversionBinaries } from '../fixtures/operator-conversion.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import type { ComparisonRecord } from './comparison-record.ts';
import { differentialRuns, sampledRuns } from './global-setup.ts';
import { kindsUnderTest } from './kinds-under-test.ts';
import {
  comparePair,
  type OurConvert,
  type SharedKind,
  sharedKind,
  withBagsRewritten,
  withoutBagEntries,
} from './random-pairs.ts';

const neededBy = 'test/differential/random-vs-operator.test.ts';
const go = goToolchain(neededBy);
const crdDir = sharedData('real-aso-crds/v2.20.0', neededBy);

function kindOf(name: string): SharedKind {
  const entry = catalog.find((candidate) => candidate.kind === name);
  if (!entry) throw new Error(`no generated kind ${name}`);
  return sharedKind(entry, crdDir.path);
}

/**
 * Random objects of every generated kind, at every version kubectl-aso and the operator both have, converted
 * to every other such version by convert() and by Azure Service Operator v2.20.0's own conversions, both ways
 * round (each side reads what the other stored, bags included): spec, status and bags must agree, save for
 * the named exclusions (exclusions.ts), counted in the figures printed per kind. The comparison itself runs
 * in the background from the start of the run (global-setup.ts, comparison-job.ts); each test below waits
 * for its kind's record and judges it.
 */

/** This run's kinds, picked with the seed the global setup fixed and printed (kinds-under-test.ts). */
const underTest = kindsUnderTest(
  catalog,
  { ...process.env, ASO_DIFF_SEED: String(inject('differentialSeed')) },
  () => {},
);

/** The background comparison's records so far, and whether it ended (done or failed). */
function readRecords(path: string): { records: Map<string, ComparisonRecord>; ended?: string } {
  const records = new Map<string, ComparisonRecord>();
  let ended: string | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const parsed = JSON.parse(line) as ComparisonRecord | { done: true } | { error: string };
    if ('key' in parsed) records.set(parsed.key, parsed);
    else ended = 'error' in parsed ? `the background comparison failed: ${parsed.error}` : 'done';
  }
  return { records, ...(ended ? { ended } : {}) };
}

/** Waits for the record of `key`; fails if the background comparison ended without it. */
async function recordOf(key: string): Promise<ComparisonRecord> {
  const path = inject('differentialResults');
  if (path === '' || !existsSync(path)) throw new Error('the background comparison was not started');
  for (;;) {
    const { records, ended } = readRecords(path);
    const record = records.get(key);
    if (record) return record;
    if (ended) throw new Error(`no record of ${key}: ${ended}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

describe.skipIf(!go.present || !crdDir.present)(
  'convert() agrees with the operator on random objects',
  () => {
    beforeAll(async () => {
      await operatorConversionBinaries(['storage.azure.com']);
    }, 1_800_000);

    for (const { entry, sampled } of underTest) {
      const count = sampled ? sampledRuns : differentialRuns;
      it(`${entry.group} ${entry.kind}: ${count} random objects per shared version pair, both ways round`, async () => {
        const record = await recordOf(`${entry.group}/${entry.kind}`);
        process.stdout.write(`operator agreement (random): ${record.line}\n`);
        expect(record.count).toBe(count);
        expect(record.report).toEqual([]);
        expect(record.comparedPerPair.length).toBeGreaterThan(0);
        for (const compared of record.comparedPerPair) expect(compared).toBeGreaterThanOrEqual(record.count);
        expect(record.leaves).toBeGreaterThan(record.compared);
        // With two storage versions shared, each side's bags reach the other: the comparison must have seen them.
        if (record.sharedStorage > 1) expect(record.bagEntries).toBeGreaterThan(0);
        // A safety net, not a speed target: StorageAccount (182 pairs) takes about 15 CPU-minutes.
      }, 5_400_000);
    }

    describe('the comparison can fail (negative controls on StorageAccount)', () => {
      const wrongLocation: OurConvert = (object, target) => {
        const converted = convert(object, target);
        return { ...converted, spec: { ...(converted.spec as object), location: 'nowhere' } };
      };

      it('a wrong value is reported, with the object that shows it', async () => {
        const pair = await comparePair(
          kindOf('StorageAccount'),
          'v1api20230101',
          'v1api20220901',
          20,
          propertySeed,
          wrongLocation,
        );
        expect(pair.agreed).toBeLessThan(pair.compared);
        const location = pair.disagreements.get('direct spec.location');
        expect(location?.first.ours).toBe('nowhere');
        expect(location?.first.input).toHaveProperty('spec');
      });

      it('a convert() that ignores the bags the operator wrote disagrees on the operator-stored round', async () => {
        const ignoresBags: OurConvert = (object, target) => convert(withoutBags(object), target);
        const pair = await comparePair(
          kindOf('StorageAccount'),
          'v1api20230101',
          'v1api20210401storage',
          50,
          propertySeed,
          ignoresBags,
        );
        const rounds = [...pair.disagreements.values()].map((seen) => seen.first.round);
        expect(rounds).toContain('operator-stored');
      });

      it('a convert() that drops bag entries no version types disagrees (the operator carries them along)', async () => {
        const dropsUnknown: OurConvert = (object, target) =>
          withoutBagEntries(convert(object, target), /^Zz/);
        const pair = await comparePair(
          kindOf('StorageAccount'),
          'v1api20230101storage',
          'v1api20210401storage',
          50,
          propertySeed,
          dropsUnknown,
        );
        expect(
          [...pair.disagreements.keys()].some((key) => /^direct spec\.\$propertyBag\.Zz/.test(key)),
        ).toBe(true);
      });

      it('a convert() that writes and reads bags the old way (JSON names, values as JSON text) disagrees both ways round', async () => {
        // Consistent with itself, as kubectl-aso was before issue 8 item 1, so only the operator's reading shows it.
        const oldBags: OurConvert = (object, target) =>
          bagsRewritten(convert(bagsRewritten(object, 'new'), target), 'old');
        const pair = await comparePair(
          kindOf('StorageAccount'),
          'v1api20230101storage',
          'v1api20210401storage',
          50,
          propertySeed,
          oldBags,
        );
        const keys = [...pair.disagreements.keys()];
        expect(keys.some((key) => key.startsWith('direct ') && key.includes('$propertyBag'))).toBe(true);
        expect(keys.some((key) => key.startsWith('ours-stored '))).toBe(true);
      });
    });
  },
);

/** `value` with every `$propertyBag` removed. */
function withoutBags(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBags);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$propertyBag')
      .map(([key, child]) => [key, withoutBags(child)]),
  );
}

/**
 * `value` with every bag rewritten to the format kubectl-aso wrote before issue 8 item 1 (`old`: keyed by
 * JSON name, every value JSON text: `{"allowedCopyScope": "\"AAD\""}`, which the operator does not read), or
 * from it back to the operator's (`new`).
 */
function bagsRewritten(value: unknown, to: 'old' | 'new'): Record<string, unknown> {
  const entry = ([name, text]: [string, string]): [string, string] => {
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    if (to === 'old') return [name.charAt(0).toLowerCase() + name.slice(1), JSON.stringify(parsed)];
    return [name.charAt(0).toUpperCase() + name.slice(1), typeof parsed === 'string' ? parsed : text];
  };
  return withBagsRewritten(value, (entries) => entries.map(entry));
}
