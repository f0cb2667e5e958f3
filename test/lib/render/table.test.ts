import { describe, expect, it } from 'vitest';
import { renderTable, visibleWidth } from '../../../src/lib/render/table.ts';

describe('renderTable', () => {
  const columns = [{ header: 'NAME' }, { header: 'MESSAGE', flexible: true }];

  it('cuts the flexible column so every line fits the width', () => {
    const text = renderTable(
      columns,
      [
        ['a', 'x'.repeat(200)],
        ['bb', 'short'],
      ],
      40,
    );
    for (const line of text.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
    expect(text).toContain('…');
    expect(text).toContain('short');
  });

  it('keeps every cell whole when the width is unlimited', () => {
    const text = renderTable(columns, [['a', 'x'.repeat(200)]], Number.POSITIVE_INFINITY);
    expect(text).toContain('x'.repeat(200));
  });

  it('folds newlines so a row stays on one line', () => {
    const text = renderTable(columns, [['a', 'first\nsecond']], 80);
    expect(text.split('\n')).toHaveLength(2);
  });
});
