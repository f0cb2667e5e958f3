import type { KubeClient } from '../kube/client.ts';
import { ApiError } from '../kube/errors.ts';
import type { KubeObject } from '../kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../kube/paths.ts';
import { type Backoff, withBackoff } from './backoff.ts';

/** One page of a list and the token of the next (undefined on the last page). */
export interface Page {
  items: KubeObject[];
  continueToken: string | undefined;
}

/** A continue token the API server no longer honours (410 Expired), and the fresh token it offered, if any. */
export class ContinueExpired extends Error {
  readonly freshToken: string | undefined;
  constructor(freshToken: string | undefined) {
    super('continue token expired');
    this.freshToken = freshToken;
  }
}

/**
 * Reads one page of a resource type across namespaces. Unlike `listPages` (src/lib/kube/list.ts), the
 * continue token is the caller's, because a migration saves it in its checkpoint to resume from; a 410 on
 * an old token is handed back as {@link ContinueExpired} for the caller to recover.
 */
export async function readPage(
  client: KubeClient,
  type: ResourceType,
  limit: number,
  continueToken: string | undefined,
  backoff: Backoff,
): Promise<Page> {
  try {
    const page = await withBackoff(
      () =>
        client.request<{ items?: KubeObject[]; metadata?: { continue?: string } }>({
          path: resourcePath(type),
          query: { limit, continue: continueToken },
          subject: { verb: 'list', resource: resourceName(type) },
        }),
      backoff,
    );
    return { items: page.items ?? [], continueToken: page.metadata?.continue || undefined };
  } catch (error) {
    if (error instanceof ApiError && error.status === 410 && continueToken !== undefined) {
      throw new ContinueExpired(error.continueToken);
    }
    throw error;
  }
}
