import { existsSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { alwaysGroups, groupsPickedBy } from './test/differential/kinds-under-test.ts';

/** The core groups' folder names under generated/ (`storage.azure.com` -> `storage`). */
const coreGroups = [...alwaysGroups].map((group) => group.replace(/\.azure\.com$/, ''));

/** How many other groups' generated tests a run samples. */
const sampledGroups = 8;

/**
 * The generated tests a run includes. With every kind's tests the suite outgrows CI's time on this machine,
 * so a run takes the core groups' and those of a few other groups picked by a printed seed
 * (`ASO_GEN_SEED` repeats it); `ASO_GEN_ALL=1`, or naming a `generated/` path on the command line, runs them all.
 */
function generatedTests(env: NodeJS.ProcessEnv, argv: readonly string[]): string[] {
  if (env.ASO_GEN_ALL === '1' || argv.some((arg) => arg.startsWith('generated')))
    return ['generated/**/*.test.ts'];
  // Vitest reads this file once per project as well: the first reading fixes the seed for the others.
  const first = env.ASO_GEN_PRINTED === undefined;
  env.ASO_GEN_PRINTED = '1';
  env.ASO_GEN_SEED ??= String(Date.now() % 2 ** 31);
  const seed = Number(env.ASO_GEN_SEED);
  const groups = existsSync('generated')
    ? readdirSync('generated', { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(`generated/${d.name}/tests`))
        .map((d) => d.name)
    : [];
  const others = groups.filter((g) => !coreGroups.includes(g));
  const picked = groupsPickedBy(seed, others, sampledGroups);
  if (first && !env.VITEST_WORKER_ID)
    process.stdout.write(
      `generated tests: seed ${seed} picks ${picked.join(', ')} beside the ${coreGroups.length} core groups (ASO_GEN_SEED=${seed} repeats it; ASO_GEN_ALL=1 runs all ${groups.length})\n`,
    );
  return [...coreGroups.filter((g) => groups.includes(g)), ...picked].map(
    (g) => `generated/${g}/tests/*.test.ts`,
  );
}

/**
 * The random differential against the operator's own conversions (300 objects per version pair for the 13
 * first kinds, about 40 CPU-minutes) is computed in the background from the start of the run, at the lowest
 * CPU priority (test/differential/global-setup.ts), and judged by its test file after the rest of the suite
 * (a project of its own, ordered after the suite's): the suite runs one file at a time and mostly waits on
 * its control plane, so the comparison fills the idle core instead of adding its time after the suite's.
 */
const differential = ['test/differential/random-vs-operator.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts', ...generatedTests(process.env, process.argv.slice(2))],
          exclude: differential,
          globalSetup: ['test/control-plane/global-setup.ts'],
          maxWorkers: 1,
          // Vitest runs a single-worker project of group 0 after every other group: 1 keeps it first.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'differential',
          include: differential,
          globalSetup: ['test/differential/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
