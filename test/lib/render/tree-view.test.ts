import { describe, expect, it } from 'vitest';
import { wrapText, wrapWidthOf } from '../../../src/lib/render/tree-view.ts';

describe('wrapping a message for tree -o wide', () => {
  it('breaks at spaces within the width and keeps every word', () => {
    const text = 'the quota for PostgreSQL flexible servers in westus is exhausted; raise it and retry';
    const lines = wrapText(text, 24);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(24);
    expect(lines.join(' ')).toBe(text);
  });

  it('splits a word longer than the width across lines instead of cutting it', () => {
    const id = '/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg';
    const lines = wrapText(`scope ${id} denied`, 20);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    // The long ID continues on the next line where the width ends it: joined without breaks it is whole.
    expect(lines.join('').replace(/\s/g, '')).toBe(`scope${id}denied`);
  });

  it('does not wrap without a width (a pipe without COLUMNS)', () => {
    expect(wrapText('a b c', Number.POSITIVE_INFINITY)).toEqual(['a b c']);
    expect(wrapWidthOf({ isTTY: false }, {})).toBe(Number.POSITIVE_INFINITY);
    expect(wrapWidthOf({ isTTY: false }, { COLUMNS: '90' })).toBe(90);
    expect(wrapWidthOf({ isTTY: true, columns: 120 }, { COLUMNS: '90' })).toBe(120);
  });
});
