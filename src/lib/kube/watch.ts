import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseJson } from '../json/parse-json.ts';
import { apiErrorOf } from './api-errors.ts';
import type { KubeClient } from './client.ts';
import { ApiError, UnexpectedResponse } from './errors.ts';
import type { KubeObject, ListSelection } from './list.ts';
import { resourceName, resourcePath } from './paths.ts';

/** One change a watch reports. BOOKMARK events only move the resourceVersion on and are not passed on. */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: T;
}

/** The watch's resourceVersion is too old (410 Gone): the caller must list again and watch from there. */
export class WatchExpired extends Error {
  constructor(resource: string) {
    super(`watch of ${resource} expired; list again`);
    this.name = 'WatchExpired';
  }
}

interface RawEvent {
  type: string;
  object: KubeObject & { code?: number; message?: string };
}

/**
 * Delays between retries of the same thing: none the first time, then 200 ms doubling up to `maxMs`,
 * each with up to a quarter of jitter; `reset()` once a retry got somewhere.
 */
export class Backoff {
  private attempt = 0;
  private readonly maxMs: number;

  constructor(maxMs = 30_000) {
    this.maxMs = maxMs;
  }

  /** The next delay in milliseconds (0 on the first attempt since the last reset). */
  next(): number {
    const attempt = this.attempt++;
    if (attempt === 0) return 0;
    const base = Math.min(this.maxMs, 200 * 2 ** Math.min(attempt - 1, 20));
    return Math.round(base * (0.75 + Math.random() * 0.25));
  }

  /** Sleeps for the next delay; returns early, without throwing, when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    const delay = this.next();
    if (delay > 0 && !signal.aborted) await sleep(delay, undefined, { signal }).catch(() => undefined);
  }

  reset(): void {
    this.attempt = 0;
  }
}

/**
 * The lines of a newline-delimited stream, decoded as UTF-8 across chunk boundaries (a character split
 * between two chunks stays whole). Blank lines are skipped.
 */
export async function* linesOf(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let buffered = '';
  for await (const chunk of chunks) {
    buffered += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let start = 0;
    let newline = buffered.indexOf('\n', start);
    while (newline >= 0) {
      const line = buffered.slice(start, newline);
      if (line.trim().length > 0) yield line;
      start = newline + 1;
      newline = buffered.indexOf('\n', start);
    }
    buffered = buffered.slice(start);
  }
  buffered += decoder.end();
  if (buffered.trim().length > 0) yield buffered;
}

/** A socket-level failure while reading a stream (reset, aborted): worth reconnecting, not a bug. */
function isTransportError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (typeof (error as { code?: unknown }).code === 'string' || error.message === 'aborted')
  );
}

/** A stream that lasted this long counts as healthy: the next reconnect does not wait. */
const healthyStreamMs = 10_000;

/** How a watch keeps its connection honest. */
export interface WatchTiming {
  /**
   * A stream that delivers nothing, not even a bookmark, for this long is presumed dead (a connection a
   * network dropped silently stays open for hours) and is reopened from the last version seen. The API
   * server sends a bookmark about every minute to a watch that allows them, so the default leaves room
   * for two to go missing.
   */
  idleMs?: number;
  /**
   * The server ends each watch after a random time between this and twice this (client-go's spread), so
   * that connections are recycled and land on a restarted or rebalanced server.
   */
  minTimeoutSeconds?: number;
}

/** The defaults of {@link WatchTiming}. */
export const defaultWatchTiming: Required<WatchTiming> = { idleMs: 150_000, minTimeoutSeconds: 300 };

/**
 * Watches a resource type from `resourceVersion` (a list's snapshot), yielding each change once. When the
 * server ends the stream (after the `timeoutSeconds` asked for, see {@link WatchTiming}), the stream goes
 * idle for too long, or the connection drops, the watch resumes from the last version it saw, bookmarks
 * included, waiting longer each time a stream ends without delivering anything; when that version has
 * expired it throws {@link WatchExpired}. A connection that cannot be reopened throws the client's typed
 * error (`ClusterUnreachable`, `Unauthorized`, `Forbidden`, ...), as does an `ERROR` event. Ends when
 * `signal` aborts.
 */
export async function* watchObjects<T extends KubeObject = KubeObject>(
  client: KubeClient,
  selection: ListSelection,
  resourceVersion: string | undefined,
  signal: AbortSignal,
  timing: WatchTiming = {},
): AsyncGenerator<WatchEvent<T>> {
  const { idleMs, minTimeoutSeconds } = { ...defaultWatchTiming, ...timing };
  let version = resourceVersion;
  let failedOpens = 0;
  const resource = resourceName(selection);
  const subject = { verb: 'watch', resource, namespace: selection.namespace };
  const backoff = new Backoff();
  while (!signal.aborted) {
    await backoff.wait(signal);
    if (signal.aborted) return;
    const response: Readable | 'retry' | undefined = await client
      .stream({
        path: resourcePath(selection, selection.namespace),
        query: {
          watch: true,
          allowWatchBookmarks: true,
          timeoutSeconds: Math.round(minTimeoutSeconds * (1 + Math.random())),
          resourceVersion: version,
          labelSelector: selection.labelSelector,
        },
        subject,
        // Bounds the wait for the answer (a pooled connection may be dead too), then the stream's silence.
        timeoutMs: idleMs,
        signal,
      })
      .catch((error: unknown) => {
        if (signal.aborted) return undefined;
        if (error instanceof ApiError && error.status === 410) throw new WatchExpired(resource);
        // A connection that failed to open is tried again a few times before the cluster counts as gone.
        if (isOpenFailure(error) && ++failedOpens < maxFailedOpens) return 'retry' as const;
        throw error;
      });
    if (response === undefined) return;
    if (response === 'retry') continue;
    failedOpens = 0;
    const stop = (): void => {
      response.destroy();
    };
    if (signal.aborted) {
      response.destroy();
      return;
    }
    signal.addEventListener('abort', stop, { once: true });
    const opened = Date.now();
    let delivered = false;
    // Any byte proves the stream alive; silence past idleMs ends it as a dropped connection would.
    const idle = setTimeout(() => response.destroy(idleError()), idleMs);
    response.on('data', () => idle.refresh());
    try {
      for await (const line of linesOf(response)) {
        const event = parseEvent(line, client.server, resource);
        delivered = true;
        if (event.type === 'ERROR') {
          if (event.object.code === 410) throw new WatchExpired(resource);
          throw apiErrorOf(event.object.code ?? 500, JSON.stringify(event.object), subject, client.server);
        }
        version = event.object.metadata?.resourceVersion ?? version;
        if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
          yield { type: event.type, object: event.object as T };
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      if (!isTransportError(error)) throw error;
      // The connection dropped: reconnect below, which fails with a typed error if the server is gone.
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', stop);
      response.destroy();
    }
    if (delivered || Date.now() - opened >= healthyStreamMs) backoff.reset();
  }
}

/** Attempts at opening a watch stream, in a row, before a transport failure is final. */
const maxFailedOpens = 3;

/** A failure to open a connection at all (refused, reset, timed out), as `KubeClient` marks it. */
function isOpenFailure(error: unknown): boolean {
  return typeof (error as { transportCode?: unknown } | null)?.transportCode === 'string';
}

function idleError(): Error {
  return Object.assign(new Error('the watch stream went silent'), { code: 'EWATCHIDLE' });
}

/** One line of a watch stream as an event; a line that is not one is the server's fault, typed as such. */
function parseEvent(line: string, server: string, resource: string): RawEvent {
  let event: unknown;
  try {
    event = parseJson(line);
  } catch {
    event = undefined;
  }
  if (typeof event !== 'object' || event === null || typeof (event as RawEvent).object !== 'object') {
    throw new UnexpectedResponse(server, `watch ${resource}`, `an event line of ${line.length} characters`);
  }
  return event as RawEvent;
}
