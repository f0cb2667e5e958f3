import { InvalidInput } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { ApiError, Forbidden, NotFound } from '../kube/errors.ts';
import { type KubeObject, type ListedVersion, listPages } from '../kube/list.ts';
import { resourceName } from '../kube/paths.ts';
import { defaultWatchTiming, type WatchTiming } from '../kube/watch.ts';
import { forEachBounded } from './bounded.ts';
import { type AsoKind, discoverAsoKinds, selectKinds } from './kinds.ts';
import { namespaceLister, readAcrossNamespaces } from './namespaces.ts';
import { readyStateOf } from './ready-state.ts';
import {
  count,
  emptySummary,
  orderedSummary,
  type StatusItem,
  type StatusReport,
  type StatusWarning,
  sortItems,
} from './report.ts';
import type { StatusSelection } from './selection.ts';

/** How listing is spread out; the defaults suit a laptop's control plane and a large real cluster alike. */
export interface ListTuning {
  /** Resource types listed at once. */
  concurrency?: number;
  /** Objects a page. */
  pageSize?: number;
  /** How live views keep their watches honest (see `WatchTiming`). */
  watch?: WatchTiming;
}

/**
 * Eight types listed at once, 500 objects a page (kubectl's page size): enough to overlap the round trips
 * of a real cluster's hundreds of ASO types while keeping the load on the API server bounded. `--chunk-size`
 * overrides the page size.
 */
export const defaultTuning: Required<ListTuning> = {
  concurrency: 8,
  pageSize: 500,
  watch: defaultWatchTiming,
};

/** The report line of one object of one type: everything printed, nothing else of the object kept. */
export function itemOf(kind: AsoKind, object: KubeObject): StatusItem {
  const ready = readyStateOf(object);
  return {
    namespace: object.metadata.namespace ?? null,
    kind: kind.kind,
    group: kind.group,
    version: kind.version,
    name: object.metadata.name,
    state: ready.state,
    stale: ready.stale,
    ready: ready.ready,
    severity: ready.severity,
    reason: ready.reason,
    message: ready.message,
    lastTransitionTime: ready.lastTransitionTime,
  };
}

/**
 * The warning for a type that could not be read: only RBAC (403) and a type removed meanwhile (404) are
 * warnings, the rest of the report still stands. A 400/422 means the request itself was wrong (in practice
 * the label selector) and becomes {@link InvalidInput}; anything else (cluster gone, credentials rejected,
 * a server error, a bug) is rethrown.
 */
export function warningOf(
  kind: AsoKind,
  namespace: string | undefined,
  error: unknown,
  selection: Pick<StatusSelection, 'labelSelector'> = { labelSelector: undefined },
): StatusWarning {
  if (error instanceof ApiError && (error.status === 400 || error.status === 422)) {
    throw selection.labelSelector
      ? new InvalidInput(
          `-l/--selector "${selection.labelSelector}"`,
          `the API server rejected it: ${error.message}`,
        )
      : new InvalidInput(resourceName(kind), error.message);
  }
  // A server error that outlived the client's retries is one type's problem (a broken conversion
  // webhook answers 500 for its kind alone): the other types are still worth showing.
  const serverError = error instanceof ApiError && error.status >= 500;
  if (!(error instanceof Forbidden || error instanceof NotFound || serverError)) throw error;
  return {
    resource: resourceName(kind),
    kind: kind.kind,
    group: kind.group,
    namespace: namespace ?? null,
    reason: error instanceof Forbidden ? 'Forbidden' : error instanceof NotFound ? 'NotFound' : 'ServerError',
    message: error.message,
  };
}

/** One type's objects, page by page, as report lines; `listed` receives the list's resourceVersion. */
export async function* itemsOfKind(
  client: KubeClient,
  kind: AsoKind,
  selection: Pick<StatusSelection, 'namespace' | 'labelSelector'>,
  pageSize: number,
  listed?: ListedVersion,
  signal?: AbortSignal,
): AsyncGenerator<StatusItem[]> {
  const namespace = kind.namespaced ? selection.namespace : undefined;
  for await (const page of listPages(
    client,
    { ...kind, namespace, labelSelector: selection.labelSelector, pageSize, signal },
    listed,
  )) {
    yield page.map((object) => itemOf(kind, object));
  }
}

/** The ASO types the selection covers, discovered from the cluster. */
export async function kindsFor(client: KubeClient, selection: StatusSelection): Promise<AsoKind[]> {
  return selectKinds(await discoverAsoKinds(client), selection.kinds);
}

/**
 * Reads the Ready condition of every selected ASO object: discovers the ASO types, lists them a bounded
 * number at a time, page by page, and keeps of each object only its report line, and only when its state
 * is selected; the summary is counted as the pages stream past. A type that cannot be read (RBAC, removed
 * meanwhile) becomes a warning and the rest is still reported. With `-A`, a type the user may not list
 * cluster-wide is listed namespace by namespace (when namespaces may be listed), with a warning for each
 * namespace it may not read.
 */
export async function collectStatus(
  client: KubeClient,
  selection: StatusSelection,
  tuning: ListTuning = {},
): Promise<StatusReport> {
  const { concurrency, pageSize } = { ...defaultTuning, ...tuning };
  const kinds = await kindsFor(client, selection);
  const items: StatusItem[] = [];
  const summary = emptySummary();
  const warnings: StatusWarning[] = [];
  const namespaces = namespaceLister(client);
  // The first fatal error ends the run: the lists still in flight are cancelled, not left to finish.
  const cancel = new AbortController();
  const collect = async (kind: AsoKind, namespace: string | undefined): Promise<void> => {
    const pages = itemsOfKind(client, kind, { ...selection, namespace }, pageSize, undefined, cancel.signal);
    for await (const page of pages) {
      for (const item of page) {
        if (selection.states && !selection.states.has(item.state)) continue;
        items.push(item);
        count(summary, item);
      }
    }
  };
  await forEachBounded(kinds, concurrency, (kind) =>
    readAcrossNamespaces({
      namespaced: kind.namespaced,
      namespace: kind.namespaced ? selection.namespace : undefined,
      namespaces,
      concurrency,
      read: (namespace) => collect(kind, namespace),
      warn: (namespace, error, message) => {
        const warning = warningOf(kind, namespace, error, selection);
        warnings.push(message ? { ...warning, message } : warning);
      },
    }),
  ).catch((error: unknown) => {
    cancel.abort();
    throw error;
  });
  warnings.sort(
    (a, b) => a.resource.localeCompare(b.resource) || (a.namespace ?? '').localeCompare(b.namespace ?? ''),
  );
  return { items: sortItems(items, selection.sort), summary: orderedSummary(summary), warnings };
}
