import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

/** A fresh process loading the generated tests' support, as each test file does, drawing three samples. */
async function sampleWith(seed: string | undefined): Promise<string> {
  const script = `
    const fc = (await import('fast-check')).default;
    await import('./src/testing/conversion-support.ts');
    console.log(JSON.stringify(fc.sample(fc.string(), 3)));`;
  const env = { ...process.env };
  delete env.ASO_FC_SEED;
  if (seed !== undefined) env.ASO_FC_SEED = seed;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env });
  return stdout;
}

describe('property-test seeds', () => {
  it('are printed, and ASO_FC_SEED replays the same draws', async () => {
    const first = await sampleWith(undefined);
    const seed = /property tests: seed (-?\d+) \(replay with ASO_FC_SEED=\1\)/.exec(first)?.[1];
    expect(seed).toBeDefined();
    const replay = await sampleWith(seed);
    expect(replay).toBe(first);
  });
});
