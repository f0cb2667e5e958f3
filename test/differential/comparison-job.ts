import { appendFileSync } from 'node:fs';
import { catalog } from '../../generated/catalog.ts';
import { operatorConversionBinaries } from '../fixtures/operator-conversion.ts';
import { comparisonRecord } from './comparison-record.ts';
import { kindsUnderTest } from './kinds-under-test.ts';
import { compareKindInThreads } from './threaded-pairs.ts';

/*
 * `node test/differential/comparison-job.ts OUT CRD_DIR SEED RUNS SAMPLED_RUNS OBJECT_SEED`: the random
 * differential of the kinds `kindsUnderTest` picks with SEED, objects drawn with OBJECT_SEED, one kind after another, each appended to OUT as a JSON line
 * (comparison-record.ts) as soon as it is done, then `{"done":true}`; a failure appends `{"error":...}`.
 * Started by the differential's global setup at the lowest CPU priority, so that it uses what the rest of
 * the suite leaves idle; random-vs-operator.test.ts waits for each kind's line and asserts on it.
 */
const [out = '', crdDir = '', seed = '', runs = '', sampledRuns = '', objectSeed = ''] =
  process.argv.slice(2);
try {
  const underTest = kindsUnderTest(catalog, { ...process.env, ASO_DIFF_SEED: seed }, () => {});
  await operatorConversionBinaries(underTest.map(({ entry }) => entry.group));
  for (const { entry, sampled } of underTest) {
    const count = Number(sampled ? sampledRuns : runs);
    const figures = await compareKindInThreads(entry, crdDir, count, Number(objectSeed));
    appendFileSync(out, `${JSON.stringify(comparisonRecord(figures, count))}\n`);
  }
  appendFileSync(out, `${JSON.stringify({ done: true })}\n`);
} catch (error) {
  appendFileSync(out, `${JSON.stringify({ error: error instanceof Error ? error.stack : String(error) })}\n`);
  process.exitCode = 1;
}
