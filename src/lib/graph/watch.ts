import type { KubeClient } from '../kube/client.ts';
import { Forbidden, NotFound } from '../kube/errors.ts';
import { watchObjects } from '../kube/watch.ts';
import { discoverAsoKinds } from '../status/kinds.ts';
import { type GraphReport, type GraphRequest, graphFor } from './report.ts';

/** How `tree --watch` draws and where it writes. */
export interface GraphWatchOptions {
  /** The text of one view of the graph. */
  draw: (report: GraphReport) => Promise<string>;
  write: (text: string) => void;
  warn: (message: string) => void;
  signal: AbortSignal;
  /** Changes within this many milliseconds are drawn once (a burst of events is one redraw). */
  settleMs?: number;
}

/** The namespaces a request reads, for watching their ASO objects, secrets and config maps; undefined is all. */
function watchedNamespaces(request: GraphRequest, report: GraphReport): Array<string | undefined> {
  if ('allNamespaces' in request) return [undefined];
  if ('files' in request)
    return [
      ...new Set(
        report.nodes.filter((node) => report.targets.includes(node.id)).map((node) => node.namespace ?? ''),
      ),
    ];
  return [request.namespace];
}

/**
 * Draws the graph, then keeps it current: a watch on every ASO type and on secrets and config maps in
 * the namespaces drawn, and on any change the graph is read again and drawn when its text changed. The
 * watches only say when to look again: the graph is always read whole, so a redraw is what `tree` alone
 * would print at that moment. A type that cannot be watched (RBAC) is a warning, once. Ends when `signal`
 * aborts; a cluster that goes away ends it with its typed error.
 */
export async function watchGraph(
  client: KubeClient,
  request: GraphRequest,
  options: GraphWatchOptions,
): Promise<void> {
  const { signal } = options;
  const report = await graphFor(client, request);
  for (const warning of report.warnings) options.warn(warning.message);
  let last = await options.draw(report);
  options.write(last);
  const namespaces = watchedNamespaces(request, report);
  const kinds = await discoverAsoKinds(client);
  const types = [
    ...kinds,
    { group: '', version: 'v1', plural: 'secrets', namespaced: true },
    { group: '', version: 'v1', plural: 'configmaps', namespaced: true },
  ];
  let timer: NodeJS.Timeout | undefined;
  let drawing = Promise.resolve();
  let failure: unknown;
  const redraw = (): void => {
    drawing = drawing.then(async () => {
      if (signal.aborted) return;
      const text = await options.draw(await graphFor(client, request));
      if (text !== last) {
        last = text;
        options.write(text);
      }
    });
    drawing.catch((error: unknown) => {
      failure ??= error;
    });
  };
  const changed = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(redraw, options.settleMs ?? 300);
  };
  const stopAll = new AbortController();
  const onAbort = (): void => stopAll.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const targets = types.flatMap((type) =>
    (type.namespaced ? namespaces : [undefined]).map((namespace) => ({ type, namespace })),
  );
  // A change between the first view and a watch's starting point reaches no watch: once every watch has
  // its starting point, the graph is read once more, and drawn only if that change made it differ.
  let unlisted = targets.length;
  const listedOne = (): void => {
    unlisted -= 1;
    if (unlisted === 0) changed();
  };
  const watches = targets.map(async ({ type, namespace }) => {
    let started = false;
    try {
      // Watching from "now" (resourceVersion 0 would replay every object): only changes count.
      const listed = await client.request<{ metadata?: { resourceVersion?: string } }>({
        path: `${type.group === '' ? '/api' : `/apis/${type.group}`}/${type.version}${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${type.plural}`,
        query: { limit: 1 },
        subject: { verb: 'list', resource: type.plural, namespace },
        signal: stopAll.signal,
      });
      started = true;
      listedOne();
      for await (const _ of watchObjects(
        client,
        { ...type, namespace },
        listed.metadata?.resourceVersion,
        stopAll.signal,
      )) {
        changed();
      }
    } catch (error) {
      if (!started) listedOne();
      if (stopAll.signal.aborted) return;
      if (error instanceof Forbidden || error instanceof NotFound) {
        options.warn(
          `${type.plural}${type.group ? `.${type.group}` : ''} cannot be watched (${error.message}): its changes are drawn with the next other change`,
        );
        return;
      }
      failure ??= error;
      stopAll.abort();
    }
  });
  await Promise.all(watches);
  if (timer) clearTimeout(timer);
  await drawing.catch(() => undefined);
  signal.removeEventListener('abort', onAbort);
  if (failure !== undefined && !signal.aborted) throw failure;
}
