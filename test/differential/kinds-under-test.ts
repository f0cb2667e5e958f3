import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';

/**
 * The 13 kinds the core had before it grew (issue 23): every CI run compares them with the operator at the
 * full count of random objects.
 */
export const alwaysKinds: ReadonlySet<string> = new Set([
  'authorization.azure.com/RoleAssignment',
  'dbforpostgresql.azure.com/FlexibleServer',
  'dbforpostgresql.azure.com/FlexibleServersDatabase',
  'dbforpostgresql.azure.com/FlexibleServersFirewallRule',
  'kusto.azure.com/Cluster',
  'kusto.azure.com/Database',
  'resources.azure.com/ResourceGroup',
  'sql.azure.com/Server',
  'sql.azure.com/ServersDatabase',
  'sql.azure.com/ServersFirewallRule',
  'storage.azure.com/StorageAccount',
  'storage.azure.com/StorageAccountsBlobService',
  'storage.azure.com/StorageAccountsBlobServicesContainer',
]);

/** The groups of {@link alwaysKinds}: their generated tests always run (vitest.config.ts). */
export const alwaysGroups: ReadonlySet<string> = new Set(
  [...alwaysKinds].map((key) => key.split('/')[0] as string),
);

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

/** A kind a differential run compares, and whether a seed picked it (a sampled kind gets fewer objects). */
export interface KindUnderTest {
  readonly entry: CatalogEntry;
  readonly sampled: boolean;
}

/**
 * The kinds a differential run compares with the operator: the 13 {@link alwaysKinds}, and every other kind of
 * a few groups picked by a seed (a core kind's group among them), so that a CI run stays inside its time
 * while every group is checked over runs. The seed is `ASO_DIFF_SEED` or the clock's, and is printed with
 * the groups it picked, so a failure is reproduced with that seed; `ASO_DIFF_ALL=1` compares every kind, and
 * `ASO_DIFF_GROUPS=network.azure.com,...` only the groups it names (to check a group as it is added), none
 * of them sampled.
 */
export function kindsUnderTest(
  catalog: readonly CatalogEntry[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): KindUnderTest[] {
  const whole = (entries: readonly CatalogEntry[]) => entries.map((entry) => ({ entry, sampled: false }));
  if (env.ASO_DIFF_ALL === '1') {
    print(`differential: every kind (${catalog.length}), ASO_DIFF_ALL=1`);
    return whole(catalog);
  }
  if (env.ASO_DIFF_GROUPS !== undefined) {
    const chosen = new Set(env.ASO_DIFF_GROUPS.split(',').map((g) => g.trim()));
    const unknown = [...chosen].filter((g) => !catalog.some((e) => e.group === g));
    if (unknown.length > 0) throw new Error(`ASO_DIFF_GROUPS: no kind of ${unknown.join(', ')} is generated`);
    print(`differential: the groups ASO_DIFF_GROUPS names (${[...chosen].sort().join(', ')})`);
    return whole(catalog.filter((e) => chosen.has(e.group)));
  }
  const seed = env.ASO_DIFF_SEED !== undefined ? Number(env.ASO_DIFF_SEED) : Date.now() % 2 ** 31;
  const always = (entry: CatalogEntry) => alwaysKinds.has(`${entry.group}/${entry.kind}`);
  const groups = [...new Set(catalog.filter((e) => !always(e)).map((e) => e.group))];
  const picked = new Set(groupsPickedBy(seed, groups, sampledGroups));
  print(
    `differential: seed ${seed} picks ${[...picked].join(', ') || 'no other group'} beside the ${alwaysKinds.size} kinds always compared (ASO_DIFF_SEED=${seed} repeats it; ASO_DIFF_ALL=1 compares all ${catalog.length} kinds)`,
  );
  return catalog.flatMap((entry): KindUnderTest[] => {
    if (always(entry)) return [{ entry, sampled: false }];
    return picked.has(entry.group) ? [{ entry, sampled: true }] : [];
  });
}
