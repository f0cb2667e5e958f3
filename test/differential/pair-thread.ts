import { parentPort, workerData } from 'node:worker_threads';
import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';
import { comparePair, sharedKind } from './random-pairs.ts';

/**
 * A worker thread of {@link compareKindInThreads}: compares the version pairs the main thread sends, one
 * message each, and answers each with its `PairAgreement`. Its kind, object count and seed come once, as
 * the worker's data.
 */
interface PairThreadData {
  readonly entry: CatalogEntry;
  readonly crdDir: string;
  readonly count: number;
  readonly seed: number;
}

const { entry, crdDir, count, seed } = workerData as PairThreadData;
const kind = sharedKind(entry, crdDir);
parentPort?.on('message', async ({ source, target }: { source: string; target: string }) => {
  try {
    parentPort?.postMessage({ source, target, pair: await comparePair(kind, source, target, count, seed) });
  } catch (error) {
    parentPort?.postMessage({ source, target, error: error instanceof Error ? error.stack : String(error) });
  }
});
