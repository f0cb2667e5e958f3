import { describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import { groupsPickedBy, kindsUnderTest } from './kinds-under-test.ts';

describe('the kinds a differential run compares', () => {
  const quiet = () => {};

  it('always has the first groups, and the same seed picks the same other groups', () => {
    const first = kindsUnderTest(catalog, { ASO_DIFF_SEED: '20261126' }, quiet);
    const again = kindsUnderTest(catalog, { ASO_DIFF_SEED: '20261126' }, quiet);
    expect(again).toEqual(first);
    for (const kind of ['ResourceGroup', 'StorageAccount', 'FlexibleServer', 'Server', 'RoleAssignment'])
      expect(first.map((e) => e.kind)).toContain(kind);
    const others = new Set(first.map((e) => e.group));
    expect(others.size).toBeLessThanOrEqual(7 + 3);
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
    expect(kindsUnderTest(catalog, { ASO_DIFF_ALL: '1' }, quiet)).toHaveLength(catalog.length);
  });

  it('compares only the groups ASO_DIFF_GROUPS names, and refuses a group it has no kind of', () => {
    const chosen = kindsUnderTest(catalog, { ASO_DIFF_GROUPS: 'storage.azure.com, kusto.azure.com' }, quiet);
    expect(new Set(chosen.map((e) => e.group))).toEqual(new Set(['storage.azure.com', 'kusto.azure.com']));
    expect(chosen.map((e) => e.kind)).toContain('StorageAccount');
    expect(() => kindsUnderTest(catalog, { ASO_DIFF_GROUPS: 'nothing.azure.com' }, quiet)).toThrow(
      /nothing\.azure\.com/,
    );
  });
});
