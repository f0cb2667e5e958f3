import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
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

/**
 * Whether a process id still names a running process, and, given `mentioning`, one whose command line
 * contains it. Process ids are reused (32768 of them wrap quickly on a busy test machine), so a pid read
 * from a state file is only trusted when the process it names still looks like the one recorded; otherwise
 * stopping a stale plane could signal an unrelated process, such as another test's webhook.
 */
export function isAlive(pid: number | undefined, mentioning?: string): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (mentioning === undefined) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .some((arg) => arg.includes(mentioning));
  } catch {
    // No /proc (not Linux) or the process just ended: only the signal check above is possible.
    return !existsSync('/proc/self');
  }
}

/**
 * Stops a process: SIGTERM, then SIGKILL if it has not gone within `graceMs`. Given `mentioning`, a pid
 * whose command line no longer contains it is left alone (see {@link isAlive}).
 */
export async function stopProcess(
  pid: number | undefined,
  graceMs = 5000,
  mentioning?: string,
): Promise<void> {
  if (!isAlive(pid, mentioning)) return;
  process.kill(pid!, 'SIGTERM');
  // Until it is reaped: an ended process lingers as a zombie (empty command line) until its parent, or init
  // for a detached one, collects it, and callers expect the pid gone when this returns.
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid, mentioning)) process.kill(pid!, 'SIGKILL');
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
