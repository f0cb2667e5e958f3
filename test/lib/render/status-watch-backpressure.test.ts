import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runWatch } from '../../../src/lib/render/status-watch.ts';
import { LiveStatus } from '../../../src/lib/status/live.ts';
import type { StatusSelection } from '../../../src/lib/status/selection.ts';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';
import { createObject, testKind } from '../status/fixtures.ts';

const ready = { status: 'True', reason: 'Succeeded' };

/** A pipe whose reader has stopped: it takes one chunk and acknowledges nothing until released. */
function stalledReader(): { stream: NodeJS.WriteStream; chunks: string[]; release: () => void } {
  const chunks: string[] = [];
  let waiting: (() => void) | undefined;
  let released = false;
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      if (released) done();
      else waiting = done;
    },
  });
  const release = (): void => {
    released = true;
    waiting?.();
  };
  return { stream: stream as unknown as NodeJS.WriteStream, chunks, release };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('--watch output to a reader that stops reading, on the real control plane', () => {
  it('stops taking watch events until the reader drains, then delivers every change', async () => {
    const kind = await testKind('Held');
    const namespace = await freshNamespace('held');
    await createObject(kind, namespace, { name: 'first', ready });
    const client = await adminClient();
    const selection: StatusSelection = {
      namespace,
      labelSelector: undefined,
      kinds: [`helds.${kind.group}`],
      states: undefined,
      sort: 'namespace',
    };
    const reader = stalledReader();
    const controller = new AbortController();
    const watching = runWatch(client, selection, {
      format: 'json',
      color: false,
      signal: controller.signal,
      stream: reader.stream,
    });
    // An unhindered watcher of the same type, to know when the server has sent every change.
    const observer = new LiveStatus(client, selection);
    await observer.start(controller.signal);
    try {
      await until(() => reader.chunks.length === 1, 'the first line');
      const count = 30;
      for (let i = 0; i < count; i++) await createObject(kind, namespace, { name: `later-${i}`, ready });
      await until(() => observer.items.size === count + 1, 'the observer to see every object');
      expect(reader.chunks).toHaveLength(1);
      reader.release();
      // Each object arrives as created, then again as its status is written: every name must show up.
      const names = (): Set<string> =>
        new Set(reader.chunks.map((line) => (JSON.parse(line) as { item: { name: string } }).item.name));
      await until(() => names().size === count + 1, 'every object after the reader drained');
    } finally {
      controller.abort();
      await watching;
      await observer.stopped();
    }
  });
});
