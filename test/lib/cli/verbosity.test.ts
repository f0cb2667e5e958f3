import { describe, expect, it } from 'vitest';
import { withoutVerbosity } from '../../../src/lib/cli/verbosity.ts';
import { runCli } from '../../fixtures/cli.ts';

describe("kubectl's -v (log verbosity)", () => {
  it('is taken out of the arguments in every spelling kubectl accepts, wherever it is', () => {
    expect(withoutVerbosity(['-v', '6', 'status', '-A'])).toEqual({
      args: ['status', '-A'],
      verbosity: 6,
      error: undefined,
    });
    expect(withoutVerbosity(['status', '-v=4', '-A']).args).toEqual(['status', '-A']);
    expect(withoutVerbosity(['status', '--v=2']).verbosity).toBe(2);
    expect(withoutVerbosity(['status', '--v', '9', '-l', 'a=b']).args).toEqual(['status', '-l', 'a=b']);
    expect(withoutVerbosity(['status', '--', '-v=1']).args).toEqual(['status', '--', '-v=1']);
  });

  it('refuses a -v without a level rather than guessing it means the version', () => {
    expect(withoutVerbosity(['-v']).error).toMatch(/log level needs a number/);
    expect(withoutVerbosity(['status', '-v', 'x']).error).toMatch(/log level needs a number/);
  });

  it('is accepted by the plugin, not read as the version', async () => {
    const noKubeconfig = { KUBECONFIG: '/nonexistent/kubeconfig' };
    const client = await runCli(['-v=6', 'version', '--client'], noKubeconfig);
    expect(client.code).toBe(0);
    expect(client.stdout).toContain('Client Version: kubectl-aso');
    const inside = await runCli(['status', '--v', '3', '--state', 'bogus'], noKubeconfig);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain('--state: "bogus" is not a state');
    const bare = await runCli(['-v'], noKubeconfig);
    expect(bare.code).toBe(2);
    expect(bare.stdout).not.toContain('Client Version');
  });
});
