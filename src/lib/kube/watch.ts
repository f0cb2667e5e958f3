import type { KubeClient } from './client.ts';
import { ApiError } from './errors.ts';
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
 * Watches a resource type from `resourceVersion` (a list's snapshot), yielding each change once. When the
 * server ends the stream (it does so every few minutes) the watch resumes from the last version it saw,
 * bookmarks included; when that version has expired it throws {@link WatchExpired}. Ends when `signal`
 * aborts.
 */
export async function* watchObjects<T extends KubeObject = KubeObject>(
  client: KubeClient,
  selection: ListSelection,
  resourceVersion: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<WatchEvent<T>> {
  let version = resourceVersion;
  const resource = resourceName(selection);
  while (!signal.aborted) {
    const response = await client
      .stream({
        path: resourcePath(selection, selection.namespace),
        query: {
          watch: true,
          allowWatchBookmarks: true,
          resourceVersion: version,
          labelSelector: selection.labelSelector,
        },
        subject: { verb: 'watch', resource, namespace: selection.namespace },
        timeoutMs: 0,
      })
      .catch((error: unknown) => {
        throw error instanceof ApiError && error.status === 410 ? new WatchExpired(resource) : error;
      });
    const stop = (): void => {
      response.destroy();
    };
    if (signal.aborted) {
      response.destroy();
      return;
    }
    signal.addEventListener('abort', stop, { once: true });
    let buffered = '';
    try {
      for await (const chunk of response) {
        buffered += (chunk as Buffer).toString('utf8');
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
          if (line.trim().length === 0) continue;
          const event = JSON.parse(line) as RawEvent;
          if (event.type === 'ERROR') {
            if (event.object.code === 410) throw new WatchExpired(resource);
            throw new Error(`watch of ${resource} failed: ${event.object.message ?? 'unknown error'}`);
          }
          version = event.object.metadata?.resourceVersion ?? version;
          if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
            yield { type: event.type, object: event.object as T };
          }
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    } finally {
      signal.removeEventListener('abort', stop);
      response.destroy();
    }
  }
}
