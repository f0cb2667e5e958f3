import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { humanAge, statusTable } from '../../../src/lib/render/status-table.ts';
import type { AsoKind } from '../../../src/lib/status/kinds.ts';
import { selectKinds, UnknownKind } from '../../../src/lib/status/kinds.ts';
import {
  count,
  emptySummary,
  exitCodeFor,
  type StatusItem,
  type StatusReport,
  sortItems,
} from '../../../src/lib/status/report.ts';
import { selectionFrom } from '../../../src/lib/status/selection.ts';

function item(overrides: Partial<StatusItem>): StatusItem {
  return {
    namespace: 'ns',
    kind: 'ResourceGroup',
    group: 'resources.azure.com',
    version: 'v1',
    name: 'a',
    state: 'Ready',
    stale: false,
    ready: true,
    severity: '',
    reason: 'Succeeded',
    message: '',
    lastTransitionTime: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

function reportOf(items: StatusItem[], warnings: StatusReport['warnings'] = []): StatusReport {
  const summary = emptySummary();
  for (const each of items) count(summary, each);
  return { items, summary, warnings };
}

const kind = (k: string, plural: string, group: string, shortNames: string[] = []): AsoKind => ({
  kind: k,
  plural,
  singular: k.toLowerCase(),
  group,
  version: 'v1',
  shortNames,
  namespaced: true,
  verbs: ['list'],
});

describe('--kind', () => {
  const all = [
    kind('ResourceGroup', 'resourcegroups', 'resources.azure.com', ['rg']),
    kind('FlexibleServer', 'flexibleservers', 'dbforpostgresql.azure.com'),
    kind('FlexibleServer', 'flexibleservers', 'dbformysql.azure.com'),
  ];

  it('matches kind, plural, singular, short name and kind.group, case-insensitively', () => {
    for (const name of [
      'ResourceGroup',
      'resourcegroups',
      'RESOURCEGROUP',
      'rg',
      'resourcegroup.resources.azure.com',
    ]) {
      expect(selectKinds(all, [name]).map((k) => k.kind)).toEqual(['ResourceGroup']);
    }
    expect(selectKinds(all, ['flexibleserver'])).toHaveLength(2);
    expect(selectKinds(all, ['FlexibleServer.dbformysql.azure.com']).map((k) => k.group)).toEqual([
      'dbformysql.azure.com',
    ]);
    expect(selectKinds(all, [])).toHaveLength(3);
  });

  it('refuses a kind the cluster does not serve', () => {
    expect(() => selectKinds(all, ['rg', 'nope'])).toThrow(UnknownKind);
    expect(() => selectKinds(all, ['nope'])).toThrow(/--kind nope/);
  });
});

describe('the selection flags', () => {
  it('uses the context namespace unless -A or -n', () => {
    expect(selectionFrom({}, 'ctx').namespace).toBe('ctx');
    expect(selectionFrom({ namespace: 'x' }, 'ctx').namespace).toBe('x');
    expect(selectionFrom({ 'all-namespaces': true }, 'ctx').namespace).toBeUndefined();
  });

  it('lets -A win over -n, as kubectl does', () => {
    expect(selectionFrom({ 'all-namespaces': true, namespace: 'x' }, 'ctx').namespace).toBeUndefined();
    expect(selectionFrom({ 'all-namespaces': true, namespace: '' }, 'ctx').namespace).toBeUndefined();
    expect(() => selectionFrom({ namespace: '' }, 'ctx')).toThrow(/the namespace is empty/);
  });

  it('parses --state lists and --not-ready', () => {
    expect([...(selectionFrom({ state: ['error,Warning', 'unknown'] }, 'n').states ?? [])]).toEqual([
      'Error',
      'Warning',
      'Unknown',
    ]);
    expect([...(selectionFrom({ 'not-ready': true }, 'n').states ?? [])]).not.toContain('Ready');
    expect(() => selectionFrom({ state: ['broken'] }, 'n')).toThrow(/"broken" is not a state/);
  });
});

describe('the report', () => {
  it('counts by state, reason and Kind.group', () => {
    const report = reportOf([
      item({}),
      item({ name: 'b', state: 'Error', reason: 'AuthorizationFailed', ready: false }),
      item({
        name: 'c',
        kind: 'Vault',
        group: 'keyvault.azure.com',
        state: 'Error',
        reason: 'AuthorizationFailed',
      }),
    ]);
    expect(report.summary).toEqual({
      total: 3,
      byState: { Ready: 1, Progressing: 0, Deleting: 0, Unknown: 0, Warning: 0, Error: 2 },
      byReason: { Succeeded: 1, AuthorizationFailed: 2 },
      byKind: { 'ResourceGroup.resources.azure.com': 2, 'Vault.keyvault.azure.com': 1 },
    });
  });

  it('sorts by state worst first, and by age most recent first', () => {
    const items = [
      item({ name: 'r', lastTransitionTime: '2024-01-01T00:00:00Z' }),
      item({ name: 'e', state: 'Error', lastTransitionTime: '2023-01-01T00:00:00Z' }),
      item({ name: 'w', state: 'Warning', lastTransitionTime: null }),
      item({ name: 'p', state: 'Progressing', lastTransitionTime: '2024-06-01T00:00:00Z' }),
    ];
    expect(sortItems([...items], 'state').map((i) => i.name)).toEqual(['e', 'w', 'p', 'r']);
    expect(sortItems([...items], 'age').map((i) => i.name)).toEqual(['p', 'r', 'e', 'w']);
  });

  it('exits with the wait, fail-on and partial codes in that order', () => {
    const warning = {
      resource: 'x.a.azure.com',
      kind: 'X',
      group: 'a.azure.com',
      namespace: null,
      reason: 'Forbidden',
      message: 'no',
    };
    const errored = reportOf([item({ state: 'Error' })], [warning]);
    expect(exitCodeFor(errored, { waitTimedOut: true, failOn: 'error' })).toBe('failOn');
    expect(exitCodeFor(errored, { waitTimedOut: true, failOn: undefined })).toBe('waitTimeout');
    expect(exitCodeFor(errored, { failOn: 'error' })).toBe('failOn');
    expect(exitCodeFor(errored, {})).toBe('partial');
    expect(exitCodeFor(reportOf([item({ state: 'Warning' })]), { failOn: 'error' })).toBe('ok');
    expect(exitCodeFor(reportOf([item({ state: 'Warning' })]), { failOn: 'warning' })).toBe('failOn');
    expect(exitCodeFor(reportOf([item({ state: 'Unknown' })]), { failOn: 'not-ready' })).toBe('failOn');
    expect(exitCodeFor(reportOf([item({})]), { failOn: 'not-ready' })).toBe('ok');
  });
});

describe('the table', () => {
  const context = { palette: new Chalk({ level: 0 }), width: 100, wide: false };

  it('prints kubectl-like ages', () => {
    expect(
      [5_000, 150_000, 1_500_000, 5 * 3_600_000 + 60_000, 30 * 3_600_000, 3 * 86_400_000 + 3_600_000].map(
        humanAge,
      ),
    ).toEqual(['5s', '2m30s', '25m', '5h1m', '30h', '3d1h']);
  });

  it('cuts the message to the width, marks stale rows and summarises', () => {
    const now = Date.parse('2024-01-01T00:10:00Z');
    const text = statusTable(
      reportOf([
        item({ message: 'x'.repeat(300), stale: true }),
        item({
          name: 'b',
          state: 'Error',
          severity: 'Error',
          reason: 'AuthorizationFailed',
          message: 'denied',
        }),
      ]),
      context,
      now,
    );
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+KIND\s+NAME\s+STATE\s+SEVERITY\s+REASON\s+AGE\s+MESSAGE$/);
    expect(lines[1]).toContain('Ready (stale)');
    expect(lines[1]).toContain('10m');
    expect(Math.max(...lines.slice(0, 3).map((line) => line.length))).toBeLessThanOrEqual(100);
    expect(text).toContain('2 resources: 1 Ready, 1 Error; 1 stale (condition older than the spec)');
    expect(text).toContain('top reasons (not Ready): AuthorizationFailed 1');
    expect(text).toContain('by kind: ResourceGroup 2');
  });

  it('names what could not be read', () => {
    const warning = {
      resource: 'vaults.keyvault.azure.com',
      kind: 'Vault',
      group: 'keyvault.azure.com',
      namespace: 'ns',
      reason: 'Forbidden',
      message: 'forbidden: cannot list vaults.keyvault.azure.com in namespace ns',
    };
    const text = statusTable(reportOf([], [warning]), context);
    expect(text).toContain('No ASO resources found.');
    expect(text).toContain('warnings: 1 could not be read');
    expect(text).toContain('cannot list vaults.keyvault.azure.com in namespace ns');
  });
});
