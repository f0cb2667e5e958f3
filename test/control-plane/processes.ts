import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';

/** A free TCP port on 127.0.0.1, found by binding port 0 and letting it go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts a process that outlives this one (so `cluster:up` can return), its output going to `logFile`. */
export function spawnDetached(command: string, args: string[], logFile: string): number {
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', log, log] });
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  return child.pid;
}

/** Whether a process id still names a running process. */
export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a process: SIGTERM, then SIGKILL if it has not gone within `graceMs`. */
export async function stopProcess(pid: number | undefined, graceMs = 5000): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid!, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) process.kill(pid!, 'SIGKILL');
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One HTTPS GET that answers its status code, or 0 when nothing answered. */
export function probe(url: string, tls: https.RequestOptions): Promise<number> {
  return new Promise((resolve) => {
    const request = https.get(url, { ...tls, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', () => resolve(0));
    request.on('timeout', () => request.destroy());
  });
}

/** Polls `check` until it is true, failing with `what` and the log to read after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  isRunning: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    if (!isRunning()) throw new Error(`${what}: the process exited`);
    await sleep(200);
  }
  throw new Error(`${what}: not ready within ${timeoutMs} ms`);
}
