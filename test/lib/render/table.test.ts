import stringWidth from 'string-width';
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

describe('renderTable at scale and in narrow terminals', () => {
  const columns = [
    { header: 'NAMESPACE', shrinkable: true },
    { header: 'NAME', shrinkable: true },
    { header: 'STATE' },
    { header: 'REASON', shrinkable: true },
    { header: 'MESSAGE', flexible: true },
  ];
  const row = (index: number): string[] => [
    `namespace-${index % 50}`,
    `object-${index}`,
    '\u001b[32mReady\u001b[39m',
    'Succeeded',
    `the resource was provisioned ${index}`,
  ];

  // How fast is bench/table.ts's question (linear time is measured there, not asserted here).
  it('renders 50,000 rows, each on its own line', () => {
    const rows = Array.from({ length: 50_000 }, (_, index) => row(index));
    const text = renderTable(columns, rows, Number.POSITIVE_INFINITY);
    expect(text.split('\n')).toHaveLength(50_001);
    expect(text.split('\n')[1]).toMatch(/^namespace-0\s+object-0\s+\S+Ready\S+\s+Succeeded\s+the resource/);
  });

  it('never prints a line wider than the terminal, even when the fixed columns alone are too wide', () => {
    const long = [
      'a-namespace-with-a-very-long-name-indeed',
      `object-${'x'.repeat(120)}`,
      '\u001b[31mError\u001b[39m',
      `Reason${'y'.repeat(60)}`,
      'message '.repeat(30),
    ];
    for (const width of [40, 60, 80, 120]) {
      const text = renderTable(columns, [long, row(1)], width);
      for (const line of text.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
    }
    const eighty = renderTable(columns, [long], 80).split('\n')[1] ?? '';
    expect(eighty).toContain('Error');
    expect(eighty).toContain('…');
    expect(eighty).toContain('\u001b[31m');
  });

  it('counts width in terminal columns, so CJK and emoji cells line up and are cut whole', () => {
    const text = renderTable(
      [{ header: 'NAME' }, { header: 'MESSAGE', flexible: true }],
      [
        ['😀😀', `${'é'.repeat(5)}${'😀'.repeat(40)}`],
        ['数据', `${'库'.repeat(40)}`],
        ['ab', 'x'],
      ],
      30,
    );
    const [, first, cjk, last] = text.split('\n');
    const columnOf = (line: string | undefined, char: string): number =>
      stringWidth((line ?? '').slice(0, (line ?? '').indexOf(char)));
    expect(columnOf(first, 'é')).toBe(7);
    expect(columnOf(cjk, '库')).toBe(7);
    expect(columnOf(last, 'x')).toBe(7);
    for (const line of text.split('\n')) {
      expect(stringWidth(line)).toBeLessThanOrEqual(30);
      expect(visibleWidth(line)).toBe(stringWidth(line));
    }
    expect(first).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('never lets a wide character push a line past the terminal, whatever the width', () => {
    const rows = [
      ['名前', '😀'.repeat(30)],
      ['x', '漢字かな'.repeat(20)],
    ];
    for (let width = 21; width <= 60; width++) {
      const text = renderTable(
        [
          { header: 'NAME', shrinkable: true },
          { header: 'MESSAGE', flexible: true },
        ],
        rows,
        width,
      );
      for (const line of text.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    }
  });
});
