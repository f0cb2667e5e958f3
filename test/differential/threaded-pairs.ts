import { Worker } from 'node:worker_threads';
import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';
import { figuresOf, type KindFigures, type PairAgreement, sharedKind, versionPairs } from './random-pairs.ts';

/** A worker's answer for one version pair (pair-thread.ts). */
type PairAnswer = { source: string; target: string } & ({ pair: PairAgreement } | { error: string });

/**
 * {@link compareKindRandomly} with kubectl-aso's own convert(), spread over `threads` worker threads, each
 * comparing `perThread` pairs at once. The comparison is Node-bound (random objects, both conversions'
 * JSON, the judging), so on one thread the second core mostly waits; the 13 first kinds at 300 objects per
 * pair took 22 minutes of CI's time that way. Results are the same as on one thread: each pair draws its
 * objects from its own seed (`pairSeed`), whatever thread compares it.
 */
export async function compareKindInThreads(
  entry: CatalogEntry,
  crdDir: string,
  count: number,
  seed: number,
  threads = 2,
  perThread = 2,
): Promise<KindFigures> {
  const kind = sharedKind(entry, crdDir);
  const queue = versionPairs(kind);
  const results = new Map<string, PairAgreement>();
  const workers = Array.from(
    { length: Math.max(1, Math.min(threads, Math.ceil(queue.length / perThread))) },
    () =>
      new Worker(new URL('./pair-thread.ts', import.meta.url), {
        workerData: { entry, crdDir, count, seed },
      }),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let inFlight = 0;
            const next = () => {
              const pair = queue.shift();
              if (pair === undefined) {
                if (inFlight === 0) resolve();
                return;
              }
              inFlight += 1;
              worker.postMessage(pair);
            };
            worker.on('message', (answer: PairAnswer) => {
              inFlight -= 1;
              if ('error' in answer) {
                reject(new Error(`${entry.kind} ${answer.source} -> ${answer.target}: ${answer.error}`));
                return;
              }
              results.set(`${answer.source}>${answer.target}`, answer.pair);
              next();
            });
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (queue.length > 0 || inFlight > 0)
                reject(new Error(`a pair thread ended with code ${code}`));
            });
            for (let i = 0; i < perThread; i++) next();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  // In the pairs' own order, as on one thread.
  const pairs = versionPairs(kind).map(({ source, target }) => {
    const pair = results.get(`${source}>${target}`);
    if (pair === undefined) throw new Error(`${entry.kind} ${source} -> ${target}: no answer`);
    return pair;
  });
  return figuresOf(kind, pairs);
}
