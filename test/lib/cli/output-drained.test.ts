import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const helper = new URL('../../../src/lib/cli/output-drained.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'drained-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 900 KB of warnings on stderr, then exit 10, awaiting outputDrained first when `drain`. */
const script = join(dir, 'warn-and-exit.ts');
writeFileSync(
  script,
  [
    `import { outputDrained } from ${JSON.stringify(helper)};`,
    `const line = 'warning: ' + 'x'.repeat(290) + '\\n';`,
    'for (let i = 0; i < 3000; i++) process.stderr.write(line);',
    "if (process.argv[2] === 'drain') await outputDrained();",
    'process.exit(10);',
  ].join('\n'),
);

/** Bytes of stderr a reader gets that starts reading a second late, as a busy CI job does. */
function stderrBytesOf(mode: 'drain' | 'exit'): Promise<{ bytes: number; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, mode], { stdio: ['ignore', 'ignore', 'pipe'] });
    let bytes = 0;
    child.stderr.pause();
    setTimeout(() => {
      child.stderr.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      child.stderr.resume();
    }, 1000);
    child.on('close', (code) => resolve({ bytes, code }));
  });
}

describe('output drained before exit', () => {
  it('keeps every warning a slow reader has not read yet', async () => {
    expect(await stderrBytesOf('drain')).toEqual({ bytes: 900_000, code: 10 });
  });

  it('is needed: exiting at once loses what the pipe has not taken', async () => {
    const { bytes, code } = await stderrBytesOf('exit');
    expect(code).toBe(10);
    expect(bytes).toBeLessThan(900_000);
  });
});
