import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { watchConnections } from '../fixtures/operator-controller-connections.ts';

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
