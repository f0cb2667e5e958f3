import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { AdoptItem } from '../../../src/lib/adoption/report.ts';
import { summaryOf } from '../../../src/lib/adoption/report.ts';
import { adoptTable } from '../../../src/lib/render/adopt-check-table.ts';

const item: AdoptItem = {
  namespace: 'ns',
  kind: 'FlexibleServer',
  name: 'pg',
  armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg',
  exists: true,
  inferred: false,
  source: 'crd',
  reconcilePolicy: 'manage',
  reconcilePolicySource: 'object',
  reconcilePolicyIfExists: 'skip',
  outcome: 'skip-exists',
  reason: 'exists',
  proposed: true,
  changes: [{ path: 'location', from: 'eastus', to: 'westus', immutable: true }],
  unmapped: [],
};

describe('adoptTable', () => {
  it('shows the columns, marks the proposed policy, and lists changes in wide', () => {
    const report = { items: [item], summary: summaryOf([item], 2), warnings: ['w'] };
    const palette = new Chalk({ level: 0 });
    const narrow = adoptTable(report, { palette, width: 200, wide: false });
    expect(narrow).toMatch(/^NAMESPACE\s+KIND\s+NAME\s+EXISTS\s+POLICY\s+OUTCOME\s+CHANGES\n/);
    expect(narrow).toMatch(/ns\s+FlexibleServer\s+pg\s+yes\s+manage\/skip\*\s+skip-exists\s+1/);
    expect(narrow).toContain('1 resources: 1 skip-exists; 2 non-ASO objects passed over');
    expect(narrow).toContain('seed 001');
    const wide = adoptTable(report, { palette, width: 200, wide: true });
    expect(wide).toContain(item.armId as string);
    expect(wide).toContain('location: "eastus" -> "westus" (cannot change after creation');
  });

  it('shows ? for changes not known, and marks a list only reordered', () => {
    const newer: AdoptItem = { ...item, name: 'newer', changes: [], whatIfUnknown: 'not predicted' };
    const reordered: AdoptItem = {
      ...item,
      name: 'dns',
      changes: [{ path: 'properties.dnsServers', from: ['b', 'a'], to: ['a', 'b'], orderOnly: true }],
    };
    const report = { items: [newer, reordered], summary: summaryOf([newer, reordered], 0), warnings: [] };
    const palette = new Chalk({ level: 0 });
    const narrow = adoptTable(report, { palette, width: 200, wide: false });
    expect(narrow).toMatch(/ns\s+FlexibleServer\s+newer\s+yes\s+\S+\s+skip-exists\s+\?\n/);
    expect(narrow).toMatch(/ns\s+FlexibleServer\s+dns\s+yes\s+\S+\s+skip-exists\s+1\n/);
    const wide = adoptTable(report, { palette, width: 200, wide: true });
    expect(wide).toContain('properties.dnsServers: ["b","a"] -> ["a","b"] (same elements, in another order)');
  });
});
