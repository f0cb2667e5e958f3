import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../control-plane/processes.ts';
import { childOutput } from '../fixtures/child-output.ts';
import { runCli } from '../fixtures/cli.ts';

// Runs that wait on a cluster which never answers, or is not there: found by the issue-24 sweep.
const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;
let silent: net.Server;
const sockets = new Set<net.Socket>();
let silentConfig: string;
let closedConfig: string;

function kubeconfig(port: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kubectl-aso-waiting-')), 'config');
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
  return path;
}

beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentConfig = kubeconfig((silent.address() as net.AddressInfo).port);
  closedConfig = kubeconfig(await freePort());
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const signalNumbers: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

/**
 * Runs the plugin against the silent server, signals it after a second, and reports its code as a shell
 * sees it (a process that dies of signal N: 128 + N) and how long it took to end.
 */
async function signalled(
  args: string[],
  signal: 'SIGINT' | 'SIGTERM',
): Promise<{ code: number; ms: number }> {
  const child = spawn(process.execPath, [bin, ...args, '--kubeconfig', silentConfig], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<number>((resolve) =>
    child.on('exit', (code, name) => resolve(name ? 128 + (signalNumbers[name] ?? 0) : (code ?? -1))),
  );
  const output = childOutput(child);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const sent = Date.now();
  child.kill(signal);
  const stop = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await ended;
  clearTimeout(stop);
  await output;
  return { code, ms: Date.now() - sent };
}

describe('a run waiting on a silent cluster stops at once on SIGTERM or SIGINT', () => {
  it.each([
    [['status'], 'SIGTERM', 143],
    [['status', '--wait'], 'SIGINT', 130],
    [['status', '--watch'], 'SIGTERM', 143],
    [['status', '--watch'], 'SIGINT', 130],
    [['migrate', '--to', 'latest'], 'SIGTERM', 143],
    [['migrate', '--to', 'latest', '--dry-run'], 'SIGINT', 130],
  ] as const)('%j on %s: exit %s', async (args, signal, expected) => {
    const { code, ms } = await signalled([...args], signal);
    expect(code).toBe(expected);
    expect(ms).toBeLessThan(5000);
  });
});

describe('migrate with a cluster that is not there', () => {
  it('names it at once (exit 4) instead of retrying its first request in silence for two minutes', async () => {
    const started = Date.now();
    const run = await runCli(
      ['migrate', '--to', 'latest', '--kubeconfig', closedConfig],
      {},
      process.execPath,
      20_000,
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('cannot reach the cluster');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
