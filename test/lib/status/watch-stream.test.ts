import { describe, expect, it } from 'vitest';
import { Backoff, linesOf } from '../../../src/lib/kube/watch.ts';

async function collect(chunks: Buffer[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of linesOf(chunks)) lines.push(line);
  return lines;
}

describe('the watch stream decoder', () => {
  it('keeps a multi-byte character whole when a chunk boundary splits it', async () => {
    const text = '{"message":"Zürich 😀 東京"}\n{"message":"ok"}\n';
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      const lines = await collect([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(lines).toEqual(['{"message":"Zürich 😀 東京"}', '{"message":"ok"}']);
    }
    const oneByteAtATime = await collect([...bytes].map((byte) => Buffer.from([byte])));
    expect(oneByteAtATime).toEqual(['{"message":"Zürich 😀 東京"}', '{"message":"ok"}']);
  });

  it('yields a last line without a newline and skips blank lines', async () => {
    expect(await collect([Buffer.from('a\n\n  \nb')])).toEqual(['a', 'b']);
  });
});

describe('Backoff', () => {
  it('waits nothing first, then doubles up to its bound, and starts over after a reset', () => {
    const backoff = new Backoff(5_000);
    const delays = Array.from({ length: 12 }, () => backoff.next());
    expect(delays[0]).toBe(0);
    for (let index = 2; index < delays.length; index++) {
      expect(delays[index]).toBeGreaterThanOrEqual(Math.min(delays[index - 1] as number, 3_750));
    }
    expect(Math.max(...delays)).toBeLessThanOrEqual(5_000);
    expect(delays.at(-1)).toBeGreaterThanOrEqual(3_750);
    expect((delays[1] as number) + (delays[2] as number) + (delays[3] as number)).toBeGreaterThan(500);
    backoff.reset();
    expect(backoff.next()).toBe(0);
  });
});
