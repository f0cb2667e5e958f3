import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { catalog } from '../../generated/catalog.ts';
import { sharedDir } from '../fixtures/shared-data.ts';
import { kindsUnderTest } from './kinds-under-test.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The background comparison's output (comparison-job.ts), or '' when it could not start. */
    differentialResults: string;
    differentialSeed: number;
    differentialPropertySeed: number;
  }
}

/** Random objects per version pair; the bar is 300 (ASO_DIFF_RUNS lowers it for a quick local run). */
export const differentialRuns = Number(process.env.ASO_DIFF_RUNS ?? 300);

/**
 * Random objects per version pair for the kinds of the groups a seed picked: fewer, so that three groups of
 * any size fit CI's time (network's 51 kinds among them); `npm run bench:differential -- --all` sweeps every
 * kind at the full count.
 */
export const sampledRuns = Number(process.env.ASO_DIFF_SAMPLED_RUNS ?? Math.min(differentialRuns, 40));

/**
 * Starts the random differential (comparison-job.ts) when the run begins, at the lowest CPU priority, for
 * random-vs-operator.test.ts to read when its turn comes (its project runs after the suite's): the suite
 * runs one file at a time and mostly waits on its control plane, and the comparison, about 40 CPU-minutes,
 * fills the idle core instead of adding its time after the suite's. The seeds are fixed here and printed.
 */
export default function setup(project: TestProject): () => void {
  const root = resolve(new URL('../..', import.meta.url).pathname);
  const seed =
    process.env.ASO_DIFF_SEED !== undefined ? Number(process.env.ASO_DIFF_SEED) : Date.now() % 2 ** 31;
  const propertySeed = process.env.ASO_FC_SEED
    ? Number(process.env.ASO_FC_SEED)
    : Math.floor(Math.random() * 0x7fffffff);
  project.provide('differentialSeed', seed);
  project.provide('differentialPropertySeed', propertySeed);
  // Printed once here, with the seed the test file reuses.
  kindsUnderTest(catalog, { ...process.env, ASO_DIFF_SEED: String(seed) });
  process.stdout.write(
    `differential: objects drawn with seed ${propertySeed} (ASO_FC_SEED=${propertySeed} repeats them)\n`,
  );
  const crdDir = join(sharedDir, 'real-aso-crds/v2.20.0');
  // Without Go or the operator's CRDs there is nothing to start; the test file says which is missing.
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0 || !existsSync(crdDir)) {
    project.provide('differentialResults', '');
    return () => {};
  }
  const dir = join(root, '.local', `differential-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'results.jsonl');
  writeFileSync(out, '');
  project.provide('differentialResults', out);
  const job: ChildProcess = spawn(
    'nice',
    [
      '-n',
      '19',
      process.execPath,
      join(root, 'test/differential/comparison-job.ts'),
      out,
      crdDir,
      String(seed),
      String(differentialRuns),
      String(sampledRuns),
      String(propertySeed),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return () => {
    if (job.exitCode === null) job.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
}
