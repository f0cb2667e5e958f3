import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli.ts';

const binDir = new URL('../../bin', import.meta.url).pathname;
const pathWithPlugin = `${binDir}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`;

describe('kubectl finds and runs the plugin', () => {
  it('shows `kubectl aso` usage and the exit codes through the real kubectl binary', async () => {
    const run = await runCli(['aso', '--help'], { PATH: pathWithPlugin }, 'kubectl');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('$ kubectl aso [COMMAND]');
    expect(run.stdout).toMatch(/status\s+Every ASO resource/);
    expect(run.stdout).toContain('EXIT CODES');
    expect(run.stdout).toMatch(/20\s+the command is not implemented yet/);
  });

  it('prints the plugin version through kubectl with --version', async () => {
    const run = await runCli(['aso', '--version', '--client'], { PATH: pathWithPlugin }, 'kubectl');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Client Version: kubectl-aso \d+\.\d+\.\d+/);
  });

  it('runs migrate through kubectl and refuses a bad --to with a usage error before connecting', async () => {
    const run = await runCli(['aso', 'migrate', '--to', 'beta'], { PATH: pathWithPlugin }, 'kubectl');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--to: "beta" is not latest, a prefix');
    expect(run.stdout).toBe('');
  });
});
