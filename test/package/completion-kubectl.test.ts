import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshNamespace, kubeconfigForLoopbackPort, testPlane, uniqueSuffix } from '../fixtures/cluster.ts';
import { testKind } from '../lib/status/fixtures.ts';

const bin = new URL('../../bin', import.meta.url).pathname;

/**
 * `kubectl __complete aso WORDS...` through the real kubectl, which finds `kubectl_complete-aso` (the npm
 * install's, in bin/) on PATH as it does on a user's machine: the candidates, and cobra's directive.
 */
function complete(words: string[], env: Record<string, string> = {}) {
  const run = spawnSync('kubectl', ['__complete', 'aso', ...words], {
    env: {
      ...process.env,
      PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      KUBECONFIG: testPlane().kubeconfig,
      ...env,
    },
    encoding: 'utf8',
  });
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  return {
    code: run.status,
    values: lines.slice(0, -1).map((line) => line.split('\t')[0] ?? ''),
    directive: lines.at(-1),
    stderr: run.stderr,
  };
}

describe('completion through the real kubectl, on the real control plane', () => {
  it('offers status for `kubectl aso st`', () => {
    const run = complete(['st']);
    expect(run.code).toBe(0);
    expect(run.values).toEqual(['status']);
    expect(run.directive).toBe(':4');
    expect(run.stderr).toContain('kubectl_complete-aso st');
  });

  it("offers a command's flags and the values of -o", () => {
    expect(complete(['status', '--no-']).values).toEqual(['--no-color']);
    expect(complete(['status', '-o', '']).values).toEqual(['table', 'wide', 'json', 'yaml']);
  });

  it('offers the ASO kinds the local plane serves for --kind ""', async () => {
    // A kind name of this run only: the shared plane carries other tests' kinds, real ones included.
    const kind = await testKind(`Keyvault${uniqueSuffix().replace(/[^a-z0-9]/gi, '')}`);
    const run = complete(['status', '--kind', '']);
    expect(run.values).toContain(kind.kind);
    expect(run.values).toContain('ResourceGroup');
    expect(run.values.every((value) => /^[A-Z]/.test(value))).toBe(true);
    expect(complete(['status', '--kind', kind.plural.slice(0, -1)]).values).toEqual([kind.plural]);
  });

  it('offers the namespaces for -n and the contexts for --context', async () => {
    const namespace = await freshNamespace('complete');
    expect(complete(['status', '-n', '']).values).toContain(namespace);
    expect(complete(['status', '-n', namespace.slice(0, -2)]).values).toEqual([namespace]);
    expect(complete(['status', '--context', '']).values).toEqual(['admin', 'readonly']);
  });

  it('offers no namespaces, with no error, from a cluster that does not answer within --request-timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const started = Date.now();
      const run = complete(['status', '--request-timeout', '300ms', '-n', ''], {
        KUBECONFIG: kubeconfigForLoopbackPort(port),
      });
      expect(run.code).toBe(0);
      expect(run.values).toEqual([]);
      expect(run.directive).toBe(':4');
      expect(run.stderr).not.toMatch(/error/i);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.close();
    }
  });
});
