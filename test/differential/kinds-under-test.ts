import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';

/**
 * The groups of the 13 kinds the core had before it grew: always compared with the operator, and their
 * generated tests always run (vitest.config.ts).
 */
export const alwaysGroups = new Set([
  'authorization.azure.com',
  'dbforpostgresql.azure.com',
  'kusto.azure.com',
  'managedidentity.azure.com',
  'resources.azure.com',
  'sql.azure.com',
  'storage.azure.com',
]);

/** How many other groups a run samples. */
const sampledGroups = 3;

/** The groups of `entries` picked by `seed`: the same seed picks the same groups from the same catalog. */
export function groupsPickedBy(seed: number, groups: readonly string[], count: number): string[] {
  const pool = [...groups].sort();
  const picked: string[] = [];
  let state = seed >>> 0 || 1;
  while (picked.length < count && pool.length > 0) {
    // xorshift32: small, and enough to spread picks over a few dozen groups.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    picked.push(...pool.splice(state % pool.length, 1));
  }
  return picked.sort();
}

/**
 * The kinds a differential run compares with the operator: every kind of the groups the core always had,
 * and the kinds of a few other groups picked by a seed, so that a CI run stays inside its time while every
 * group is checked over runs. The seed is `ASO_DIFF_SEED` or the clock's, and is printed with the groups it
 * picked, so a failure is reproduced with that seed; `ASO_DIFF_ALL=1` compares every kind, and
 * `ASO_DIFF_GROUPS=network.azure.com,...` only the groups it names (to check a group as it is added).
 */
export function kindsUnderTest(
  catalog: readonly CatalogEntry[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): CatalogEntry[] {
  if (env.ASO_DIFF_ALL === '1') {
    print(`differential: every kind (${catalog.length}), ASO_DIFF_ALL=1`);
    return [...catalog];
  }
  if (env.ASO_DIFF_GROUPS !== undefined) {
    const chosen = new Set(env.ASO_DIFF_GROUPS.split(',').map((g) => g.trim()));
    const unknown = [...chosen].filter((g) => !catalog.some((e) => e.group === g));
    if (unknown.length > 0) throw new Error(`ASO_DIFF_GROUPS: no kind of ${unknown.join(', ')} is generated`);
    print(`differential: the groups ASO_DIFF_GROUPS names (${[...chosen].sort().join(', ')})`);
    return catalog.filter((e) => chosen.has(e.group));
  }
  const seed = env.ASO_DIFF_SEED !== undefined ? Number(env.ASO_DIFF_SEED) : Date.now() % 2 ** 31;
  const others = [...new Set(catalog.map((e) => e.group).filter((g) => !alwaysGroups.has(g)))];
  const picked = new Set(groupsPickedBy(seed, others, sampledGroups));
  print(
    `differential: seed ${seed} picks ${[...picked].join(', ') || 'no other group'} beside the ${alwaysGroups.size} groups always compared (ASO_DIFF_SEED=${seed} repeats it; ASO_DIFF_ALL=1 compares all ${catalog.length} kinds)`,
  );
  return catalog.filter((e) => alwaysGroups.has(e.group) || picked.has(e.group));
}
