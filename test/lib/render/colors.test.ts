import { describe, expect, it } from 'vitest';
import { paletteFor } from '../../../src/lib/render/colors.ts';

describe('paletteFor', () => {
  it('colours on a terminal when nothing says otherwise', () => {
    expect(paletteFor(true, { isTTY: true }, {}).level).toBeGreaterThan(0);
  });
  it('does not colour with NO_COLOR set, even empty', () => {
    expect(paletteFor(true, { isTTY: true }, { NO_COLOR: '' }).level).toBe(0);
  });
  it('does not colour with --no-color', () => {
    expect(paletteFor(false, { isTTY: true }, {}).level).toBe(0);
  });
  it('does not colour when stdout is not a terminal', () => {
    expect(paletteFor(true, { isTTY: false }, {}).level).toBe(0);
  });
});
