import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../fixtures/cli.ts';
import { kubeconfigForLoopbackPort, testPlane } from '../fixtures/cluster.ts';

describe('output formats', () => {
  it('prints the same typed result for --json, -o json and -o yaml', async () => {
    const env = { KUBECONFIG: testPlane().kubeconfig };
    const [json, dashO, yaml] = await Promise.all([
      runCli(['version', '--json'], env),
      runCli(['version', '-o', 'json'], env),
      runCli(['version', '-o', 'yaml'], env),
    ]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(dashO.stdout));
    expect(parse(yaml.stdout)).toEqual(JSON.parse(dashO.stdout));
  });

  it('rejects an unknown -o value as a usage error', async () => {
    const run = await runCli(['version', '--client', '-o', 'xml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('xml');
  });
});

describe('--request-timeout', () => {
  it('gives up on a server that accepts but never answers, as unreachable (exit 4)', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const kubeconfig = kubeconfigForLoopbackPort(port);
    try {
      const run = await runCli(['version', '--kubeconfig', kubeconfig, '--request-timeout', '500ms']);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('no answer within 500 ms');
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe('version --json when the server cannot be asked', () => {
  it('prints the typed report with the error, and nothing internal', async () => {
    const run = await runCli(['version', '--json'], { KUBECONFIG: '/nonexistent/kubeconfig' });
    expect(run.code).toBe(3);
    expect(Object.keys(JSON.parse(run.stdout)).sort()).toEqual(['client', 'server', 'serverError']);
  });
});
