import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { statusScreen, statusTable } from '../../../src/lib/render/status-table.ts';
import type { State } from '../../../src/lib/status/ready-state.ts';
import { count, emptySummary, type StatusItem, type StatusReport } from '../../../src/lib/status/report.ts';

const context = { palette: new Chalk({ level: 0 }), width: 100, wide: false };
const now = Date.parse('2024-01-01T01:00:00Z');

function item(name: string, state: State): StatusItem {
  return {
    namespace: 'ns',
    kind: 'ResourceGroup',
    group: 'resources.azure.com',
    version: 'v1',
    name,
    state,
    stale: false,
    ready: state === 'Ready',
    severity: state === 'Error' || state === 'Warning' ? state : '',
    reason: state === 'Ready' ? 'Succeeded' : 'Failed',
    message: '',
    lastTransitionTime: '2024-01-01T00:00:00Z',
  };
}

function reportOf(items: StatusItem[]): StatusReport {
  const summary = emptySummary();
  for (const each of items) count(summary, each);
  return { items, summary, warnings: [] };
}

describe('the --watch view on a short terminal', () => {
  const items = [
    ...Array.from({ length: 30 }, (_, i) => item(`ready-${String(i).padStart(2, '0')}`, 'Ready')),
    item('broken', 'Error'),
    item('retrying', 'Warning'),
  ];

  it('keeps header, worst rows first, a +N more line and the summary within the rows', () => {
    const lines = statusScreen(reportOf(items), context, 12, now).split('\n');
    expect(lines.length - 1).toBeLessThanOrEqual(12);
    expect(lines[0]).toMatch(/^NAMESPACE\s+KIND\s+NAME/);
    expect(lines[1]).toContain('broken');
    expect(lines[2]).toContain('retrying');
    expect(lines.find((line) => line.startsWith('+'))).toMatch(/^\+\d+ more \(\d+ Ready\)/);
    expect(lines.some((line) => line.startsWith('32 resources: 30 Ready'))).toBe(true);
  });

  it('is the plain table when the terminal is tall enough or its height is unknown', () => {
    const report = reportOf(items);
    expect(statusScreen(report, context, 100, now)).toBe(statusTable(report, context, now));
    expect(statusScreen(report, context, undefined, now)).toBe(statusTable(report, context, now));
  });
});
