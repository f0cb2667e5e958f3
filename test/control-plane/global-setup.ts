import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type Plane, runningPlane, startPlane, stopPlane } from './plane.ts';

const keep = process.env.KUBECTL_ASO_KEEP_PLANE === '1';
/**
 * The test suite's own plane, apart from the one `npm run cluster:up` keeps for the demo. Each run gets
 * its own, so that runs side by side never stop each other's; with KUBECTL_ASO_KEEP_PLANE=1 one fixed
 * plane is kept up and reused by the next run.
 */
const testStateDir = resolve(
  new URL('../..', import.meta.url).pathname,
  keep ? '.local/test-cluster' : `.local/test-cluster-${process.pid}`,
);

declare module 'vitest' {
  export interface ProvidedContext {
    plane: Plane;
  }
}

/** Starts the real control plane once for the whole suite and hands its coordinates to every test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reused = await runningPlane(testStateDir);
  const plane = reused ?? (await startPlane(testStateDir));
  project.provide('plane', plane);
  return async () => {
    if (!reused && !keep) await stopPlane(testStateDir);
  };
}
