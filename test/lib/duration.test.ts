import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/lib/duration.ts';
import { UsageError } from '../../src/lib/errors.ts';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['2h', 7_200_000],
    ['5', 5_000],
    ['0', 0],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text, 'timeout')).toBe(ms);
  });

  it('rejects text that is not a duration, naming the flag', () => {
    expect(() => parseDuration('5 minutes', 'timeout')).toThrow(UsageError);
    expect(() => parseDuration('5x', 'timeout')).toThrow('--timeout');
  });
});
