import type { KubeClient } from './client.ts';
import { ApiError } from './errors.ts';
import { type ResourceType, resourceName, resourcePath } from './paths.ts';

/** The part of any Kubernetes object that listing relies on. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  deletionTimestamp?: string;
  creationTimestamp?: string;
  /** The objects this one belongs to, which Kubernetes deletes it with. */
  ownerReferences?: Array<{ apiVersion?: string; kind?: string; name?: string; uid?: string }>;
}

/** Any object with metadata; the rest is the caller's to read. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** What to list: a resource type, optionally in one namespace and narrowed by a label selector. */
export interface ListSelection extends ResourceType {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  /** Objects a page; the server may return fewer. */
  pageSize?: number;
  /** Stops the list between or during pages (see `KubeRequest.signal`). */
  signal?: AbortSignal | undefined;
  /** The Accept header, e.g. metadata only (`PartialObjectMetadataList`) for objects whose content is not wanted. */
  accept?: string | undefined;
}

interface ListResponse<T> {
  metadata?: { continue?: string; resourceVersion?: string };
  items?: T[];
}

/**
 * Filled in by {@link listPages}: the resourceVersion of the list's snapshot (every page of one list shares
 * the first page's), from which a watch can start without missing or repeating a change.
 */
export interface ListedVersion {
  resourceVersion?: string | undefined;
}

/** The Accept header for a list of metadata only (`PartialObjectMetadataList`), with JSON as the fallback. */
export const metadataOnly =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** The page size used when the caller does not choose: kubectl's and the storage migrator's. */
export const defaultPageSize = 500;

/**
 * Where an object sits in the API server's storage order (etcd key order: namespace, then name), which
 * is the order every paged list returns.
 */
export function storageOrderKey(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

/** The objects of a page that come after `lastKey` in storage order: what a restarted list has not yielded. */
export function itemsAfter<T extends KubeObject>(items: T[], lastKey: string | undefined): T[] {
  return lastKey === undefined ? items : items.filter((item) => storageOrderKey(item) > lastKey);
}

/**
 * Lists a resource type page by page (limit + continue), so that memory holds one page at a time. When a
 * continue token has expired (410) it resumes with the server's fresh token if it offers one, and
 * otherwise starts over, skipping what it already yielded by storage order, so every object arrives
 * exactly once. After such a resumption the pages no longer share one snapshot, so `listed` reports no
 * resourceVersion: a watch must then start from the current state rather than from a version.
 */
export async function* listPages<T extends KubeObject = KubeObject>(
  client: KubeClient,
  selection: ListSelection,
  listed: ListedVersion = {},
): AsyncGenerator<T[]> {
  let token: string | undefined;
  let lastKey: string | undefined;
  let consistent = true;
  const subject = { verb: 'list', resource: resourceName(selection), namespace: selection.namespace };
  for (;;) {
    let page: ListResponse<T>;
    try {
      page = await client.request<ListResponse<T>>({
        path: resourcePath(selection, selection.namespace),
        query: {
          limit: selection.pageSize ?? defaultPageSize,
          continue: token,
          labelSelector: selection.labelSelector,
        },
        subject,
        signal: selection.signal,
        ...(selection.accept ? { accept: selection.accept } : {}),
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 410 && token !== undefined) {
        token = error.continueToken;
        consistent = false;
        listed.resourceVersion = undefined;
        continue;
      }
      throw error;
    }
    const fresh = itemsAfter(page.items ?? [], lastKey);
    if (token === undefined && consistent) listed.resourceVersion = page.metadata?.resourceVersion;
    token = page.metadata?.continue || undefined;
    const last = fresh.at(-1);
    if (last) lastKey = storageOrderKey(last);
    if (fresh.length > 0) yield fresh;
    if (token === undefined) return;
  }
}

/** Every object of a selection in one array; for small lists (CRDs, namespaces) only. */
export async function listAll<T extends KubeObject = KubeObject>(
  client: KubeClient,
  selection: ListSelection,
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of listPages<T>(client, selection)) all.push(...page);
  return all;
}
