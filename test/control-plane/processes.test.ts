import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, stopProcess } from './processes.ts';

describe('stopping a recorded process id', () => {
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  });

  const sleeper = (marker: string) => {
    // The marker stands in for the state folder a plane's processes name on their command lines.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', marker], { stdio: 'ignore' });
    started.push(child.pid as number);
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    return { pid: child.pid as number, ended };
  };

  it('leaves alone a live process whose command line does not name what was recorded (a reused pid)', async () => {
    const { pid } = sleeper('/tmp/plane-a');
    expect(isAlive(pid)).toBe(true);
    expect(isAlive(pid, '/tmp/plane-a')).toBe(true);
    expect(isAlive(pid, '/tmp/plane-b')).toBe(false);
    await stopProcess(pid, 5000, '/tmp/plane-b');
    // Still running as it was (a signalled child would be a zombie with an empty command line).
    expect(isAlive(pid, '/tmp/plane-a')).toBe(true);
  });

  it('stops the process its command line names', async () => {
    const { pid, ended } = sleeper('/tmp/plane-c');
    await stopProcess(pid, 5000, '/tmp/plane-c');
    expect(await ended).toBe('SIGTERM');
  });
});
