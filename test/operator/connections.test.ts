import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningAddresses, watchConnections } from '../fixtures/operator-controller-connections.ts';

/**
 * A child holding a connected UDP socket: connecting UDP records the remote address in the kernel's socket
 * table without sending a single packet, so the watcher can be shown an off-loopback peer while nothing
 * actually leaves the machine.
 */
async function childConnectedTo(host: string): Promise<ChildProcess> {
  const script = `const s = require('node:dgram').createSocket('${host.includes(':') ? 'udp6' : 'udp4'}');
s.connect(9, '${host}', () => process.stdout.write('connected\\n'));
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

describe('the connection watcher the operator fixture uses to prove nothing leaves loopback', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });

  it('reports a socket connected off loopback', async () => {
    child = await childConnectedTo('192.0.2.1');
    const watch = watchConnections(child.pid!);
    watch.stop();
    expect(watch.foreign()).toEqual(['udp 192.0.2.1:9']);
  });

  it('reports nothing for a socket connected to loopback', async () => {
    child = await childConnectedTo('127.0.0.1');
    const watch = watchConnections(child.pid!);
    watch.stop();
    expect(watch.foreign()).toEqual([]);
  });
});

/** A child listening on TCP `host` (a free port), as a server binding that address would. */
async function childListeningOn(host: string): Promise<ChildProcess> {
  const script = `require('node:net').createServer().listen(0, '${host}', () => process.stdout.write('listening\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

describe('the listener check the operator fixture uses to prove its webhook serves loopback only', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });

  it('reports a server bound to every interface as off loopback', async () => {
    child = await childListeningOn('0.0.0.0');
    const listeners = listeningAddresses(child.pid!);
    expect(listeners).toHaveLength(1);
    expect(listeners[0]).toMatchObject({
      loopback: false,
      text: expect.stringMatching(/^tcp 0\.0\.0\.0:\d+$/),
    });
  });

  it('reports a server bound to 127.0.0.1 as loopback', async () => {
    child = await childListeningOn('127.0.0.1');
    const listeners = listeningAddresses(child.pid!);
    expect(listeners).toHaveLength(1);
    expect(listeners[0]).toMatchObject({
      loopback: true,
      text: expect.stringMatching(/^tcp 127\.0\.0\.1:\d+$/),
    });
  });
});
