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
  const seed = env.ASO_GEN_SEED !== undefined ? Number(env.ASO_GEN_SEED) : Date.now() % 2 ** 31;
  const groups = existsSync('generated')
    ? readdirSync('generated', { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(`generated/${d.name}/tests`))
        .map((d) => d.name)
    : [];
  const others = groups.filter((g) => !coreGroups.includes(g));
  const picked = groupsPickedBy(seed, others, sampledGroups);
  if (!env.VITEST_WORKER_ID)
    process.stdout.write(
      `generated tests: seed ${seed} picks ${picked.join(', ')} beside the ${coreGroups.length} core groups (ASO_GEN_SEED=${seed} repeats it; ASO_GEN_ALL=1 runs all ${groups.length})\n`,
    );
  return [...coreGroups.filter((g) => groups.includes(g)), ...picked].map(
    (g) => `generated/${g}/tests/*.test.ts`,
  );
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', ...generatedTests(process.env, process.argv.slice(2))],
    globalSetup: ['test/control-plane/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
