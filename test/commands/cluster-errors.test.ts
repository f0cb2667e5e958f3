import { describe, expect, it } from 'vitest';
import { freePort } from '../control-plane/processes.ts';
import { runCli } from '../fixtures/cli.ts';
import { kubeconfigForLoopbackPort, testPlane } from '../fixtures/cluster.ts';

function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
}

describe('connection errors are clear, with their own exit codes', () => {
  it('names an unreachable server (exit 4)', async () => {
    const port = await freePort();
    const kubeconfig = kubeconfigForLoopbackPort(port);
    const run = await runCli(['version', '--kubeconfig', kubeconfig]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`cannot reach the cluster at https://127.0.0.1:${port}`);
    expect(run.stdout).toContain('Client Version: kubectl-aso');
    expectNoStackTrace(run.stderr);
  });

  it('names a missing kubeconfig (exit 3)', async () => {
    const run = await runCli(['version'], {
      KUBECONFIG: '/nonexistent/kubeconfig-a:/nonexistent/kubeconfig-b',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'kubeconfig not found: /nonexistent/kubeconfig-a, /nonexistent/kubeconfig-b',
    );
    expectNoStackTrace(run.stderr);
  });

  it('names an unknown context and lists the known ones (exit 3)', async () => {
    const run = await runCli(['version', '--context', 'nope'], { KUBECONFIG: testPlane().kubeconfig });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('context "nope" is not in the kubeconfig');
    expect(run.stderr).toContain('known contexts: admin, readonly');
    expectNoStackTrace(run.stderr);
  });

  it('reports the server version of a reachable cluster', async () => {
    const run = await runCli(['version', '-o', 'json'], { KUBECONFIG: testPlane().kubeconfig });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).server.gitVersion).toMatch(/^v1\.\d+\.\d+/);
  });

  it('never contacts a cluster with --client', async () => {
    const run = await runCli(['version', '--client'], { KUBECONFIG: '/nonexistent/kubeconfig' });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('Server Version');
  });

  it('rejects an unparsable --request-timeout as a usage error (exit 2)', async () => {
    const run = await runCli(['version', '--request-timeout', 'soon'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--request-timeout: "soon" is not a duration');
  });

  it('judges bad flag values before looking for a kubeconfig: usage (exit 2), not kubeconfig (exit 3)', async () => {
    const noKubeconfig = { KUBECONFIG: '/nonexistent/kubeconfig' };
    const cases: Array<[string[], string]> = [
      [['status', '--state', 'bogus'], '--state: "bogus" is not a state'],
      [['status', '-n', ''], 'the namespace is empty'],
      [['status', '--not-ready', '--state', 'ready'], 'selects nothing'],
      [['status', '--wait', '--timeout', 'soon'], '--timeout'],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args, noKubeconfig);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain('kubeconfig not found');
    }
  });
});
