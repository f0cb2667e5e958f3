import { describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import { alwaysKinds, groupsPickedBy, kindsUnderTest } from './kinds-under-test.ts';

describe('the kinds a differential run compares', () => {
  const quiet = () => {};

  it('always has the 13 first kinds, unsampled, and the same seed picks the same other groups, sampled', () => {
    const first = kindsUnderTest(catalog, { ASO_DIFF_SEED: '20261126' }, quiet);
    const again = kindsUnderTest(catalog, { ASO_DIFF_SEED: '20261126' }, quiet);
    expect(again).toEqual(first);
    const whole = first.filter((k) => !k.sampled).map((k) => `${k.entry.group}/${k.entry.kind}`);
    expect(whole.sort()).toEqual([...alwaysKinds].sort());
    const sampledGroups = new Set(first.filter((k) => k.sampled).map((k) => k.entry.group));
    expect(sampledGroups.size).toBe(3);
    for (const group of sampledGroups) {
      const ofGroup = catalog.filter((e) => e.group === group && !alwaysKinds.has(`${e.group}/${e.kind}`));
      expect(first.filter((k) => k.entry.group === group && k.sampled)).toHaveLength(ofGroup.length);
    }
  });

  it("can pick the other kinds of a core group, such as SQL's", () => {
    const seeds = Array.from({ length: 200 }, (_, i) => String(i + 1));
    const sqlSampled = seeds.some((seed) =>
      kindsUnderTest(catalog, { ASO_DIFF_SEED: seed }, quiet).some(
        (k) => k.sampled && k.entry.group === 'sql.azure.com',
      ),
    );
    expect(sqlSampled).toBe(true);
  });

  it('spreads its picks: over many seeds every group is compared', () => {
    const groups = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const seen = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) for (const g of groupsPickedBy(seed, groups, 3)) seen.add(g);
    expect([...seen].sort()).toEqual(groups);
    expect(groupsPickedBy(7, groups, 3)).toHaveLength(3);
    expect(new Set(groupsPickedBy(7, groups, 3)).size).toBe(3);
  });

  it('prints the seed it used, and compares every kind when asked', () => {
    const lines: string[] = [];
    kindsUnderTest(catalog, { ASO_DIFF_SEED: '5' }, (line) => lines.push(line));
    expect(lines.join('\n')).toContain('seed 5');
    const all = kindsUnderTest(catalog, { ASO_DIFF_ALL: '1' }, quiet);
    expect(all).toHaveLength(catalog.length);
    expect(all.every((k) => !k.sampled)).toBe(true);
  });

  it('compares only the groups ASO_DIFF_GROUPS names, and refuses a group it has no kind of', () => {
    const chosen = kindsUnderTest(catalog, { ASO_DIFF_GROUPS: 'storage.azure.com, kusto.azure.com' }, quiet);
    expect(new Set(chosen.map((k) => k.entry.group))).toEqual(
      new Set(['storage.azure.com', 'kusto.azure.com']),
    );
    expect(chosen.map((k) => k.entry.kind)).toContain('StorageAccount');
    expect(chosen.every((k) => !k.sampled)).toBe(true);
    expect(() => kindsUnderTest(catalog, { ASO_DIFF_GROUPS: 'nothing.azure.com' }, quiet)).toThrow(
      /nothing\.azure\.com/,
    );
  });
});
