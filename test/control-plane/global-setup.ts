import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type Plane, runningPlane, startPlane, stopPlane } from './plane.ts';

/** The test suite's own plane, apart from the one `npm run cluster:up` keeps for the demo. */
const testStateDir = resolve(new URL('../..', import.meta.url).pathname, '.local/test-cluster');

declare module 'vitest' {
  export interface ProvidedContext {
    plane: Plane;
  }
}

/**
 * Starts the real control plane once for the whole suite and hands its coordinates to every test file.
 * A plane already running there (KUBECTL_ASO_KEEP_PLANE=1 on an earlier run) is reused and left up.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reused = await runningPlane(testStateDir);
  const plane = reused ?? (await startPlane(testStateDir));
  project.provide('plane', plane);
  return async () => {
    if (!reused && process.env.KUBECTL_ASO_KEEP_PLANE !== '1') await stopPlane(testStateDir);
  };
}
