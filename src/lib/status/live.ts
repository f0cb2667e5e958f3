import type { KubeClient } from '../kube/client.ts';
import { type KubeObject, type ListedVersion, listPages } from '../kube/list.ts';
import { Backoff, WatchExpired, watchObjects } from '../kube/watch.ts';
import { forEachBounded } from './bounded.ts';
import { defaultTuning, itemOf, kindsFor, type ListTuning, warningOf } from './collect.ts';
import type { AsoKind } from './kinds.ts';
import { namespaceLister, readAcrossNamespaces } from './namespaces.ts';
import {
  count,
  emptySummary,
  kindKey,
  orderedSummary,
  type StatusItem,
  type StatusReport,
  type StatusWarning,
  sortItems,
} from './report.ts';
import type { StatusSelection } from './selection.ts';

/** A change the live view saw: an object appeared, changed or went away. */
export interface StatusChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  item: StatusItem;
  /** The object's line before the change, when it was known. */
  previous: StatusItem | undefined;
}

/** What a live view tells whoever shows it, once its snapshot is complete. */
export interface LiveListener {
  /**
   * An object appeared, changed or went away. A returned promise is backpressure: the watch that reported
   * the change reads nothing more until it settles (so a reader that stops reading holds the watches, not
   * an ever-growing queue).
   */
  onChange?: ((change: StatusChange) => Promise<void> | undefined | void) | undefined;
  /**
   * A type can no longer be watched (RBAC changed, the type was removed): the view goes on without it, and
   * the warning is also in {@link LiveStatus.warnings}.
   */
  onWarning?: ((warning: StatusWarning) => void) | undefined;
  /**
   * Going on is pointless (the cluster is gone, the credentials were rejected, or a bug): every watch stops
   * and the error is kept in {@link LiveStatus.fatal}. Called at most once.
   */
  onFatal?: ((error: unknown) => void) | undefined;
}

/** One list and watch: a type, in one namespace or (namespace undefined) across all it may be read in. */
interface Target {
  kind: AsoKind;
  namespace: string | undefined;
}

function keyOf(item: StatusItem): string {
  return `${kindKey(item)}/${item.namespace ?? ''}/${item.name}`;
}

/**
 * Every selected ASO object's report line, kept current from watch events: one list per type (for the
 * starting snapshot and its resourceVersion), then one watch per type from that version. A watch whose
 * version has expired lists its type again (waiting longer each time it expires in a row) and carries on.
 * Under `-A`, a type RBAC forbids cluster-wide is listed and watched namespace by namespace, as
 * `collectStatus` does. Holds one small line per object, whatever its state, because a state filter is
 * applied to what is shown, not to what is watched. No watch ever rejects: what goes wrong becomes a warning or {@link fatal}.
 */
export class LiveStatus {
  readonly items = new Map<string, StatusItem>();
  readonly warnings: StatusWarning[] = [];
  /** The error that stopped every watch, if one did. */
  fatal: unknown;
  private readonly versions = new Map<string, string>();
  private readonly client: KubeClient;
  private readonly selection: StatusSelection;
  private readonly tuning: Required<ListTuning>;
  private readonly watches: Promise<void>[] = [];
  private readonly controller = new AbortController();
  private listener: LiveListener = {};

  constructor(client: KubeClient, selection: StatusSelection, tuning: ListTuning = {}) {
    this.client = client;
    this.selection = selection;
    this.tuning = { ...defaultTuning, ...tuning };
  }

  /**
   * Lists every selected type, then starts watching them; resolves once the snapshot is complete. The
   * listener hears every later change until `signal` aborts or a fatal error stops the watches. A list
   * that fails fatally rejects.
   */
  async start(signal: AbortSignal, listener: LiveListener = {}): Promise<void> {
    this.listener = listener;
    if (signal.aborted) this.controller.abort();
    else signal.addEventListener('abort', () => this.controller.abort(), { once: true });
    const kinds = await kindsFor(this.client, this.selection);
    const started: Array<[Target, string | undefined]> = [];
    const namespaces = namespaceLister(this.client);
    await forEachBounded(kinds, this.tuning.concurrency, (kind) =>
      readAcrossNamespaces({
        namespaced: kind.namespaced,
        namespace: this.namespaceOf(kind),
        namespaces,
        concurrency: this.tuning.concurrency,
        read: async (namespace) => {
          const target = { kind, namespace };
          started.push([target, (await this.list(target, false)).resourceVersion]);
        },
        warn: (namespace, error, message) => {
          const warning = warningOf(kind, namespace, error, this.selection);
          this.warnings.push(message ? { ...warning, message } : warning);
        },
      }),
    ).catch((error: unknown) => {
      // A fatal error ends the start: the other lists in flight are cancelled rather than left running.
      this.controller.abort();
      throw error;
    });
    if (this.controller.signal.aborted) return;
    for (const [target, version] of started) this.watches.push(this.follow(target, version));
  }

  /** Resolves when every watch has ended (after the signal aborts, a fatal error, or all failed). */
  async stopped(): Promise<void> {
    await Promise.all(this.watches);
  }

  /** The current report: the selected states only, sorted, with its summary. */
  report(): StatusReport {
    const items: StatusItem[] = [];
    const summary = emptySummary();
    for (const item of this.items.values()) {
      if (this.selection.states && !this.selection.states.has(item.state)) continue;
      items.push(item);
      count(summary, item);
    }
    const warnings = [...this.warnings].sort((a, b) => a.resource.localeCompare(b.resource));
    return { items: sortItems(items, this.selection.sort), summary: orderedSummary(summary), warnings };
  }

  /** Whether a state filter lets this item be shown. */
  shows(item: StatusItem | undefined): boolean {
    return item !== undefined && (!this.selection.states || this.selection.states.has(item.state));
  }

  /**
   * Lists one type again (in `namespace`, by default the selection's), as after an expired watch, and
   * reports only what changed since: an object whose resourceVersion is the one already known is not
   * reported again.
   */
  async resync(kind: AsoKind, namespace = this.namespaceOf(kind)): Promise<ListedVersion> {
    return this.list({ kind, namespace }, true);
  }

  private namespaceOf(kind: AsoKind): string | undefined {
    return kind.namespaced ? this.selection.namespace : undefined;
  }

  /**
   * Records one object's line; reports it unless `announce` is false or the object has not changed, and
   * hands back the listener's backpressure promise, if any.
   */
  private record(
    type: 'ADDED' | 'MODIFIED' | 'DELETED',
    kind: AsoKind,
    object: KubeObject,
    announce: boolean,
  ): Promise<void> | undefined {
    const item = itemOf(kind, object);
    const key = keyOf(item);
    const previous = this.items.get(key);
    const version = object.metadata.resourceVersion;
    if (type === 'DELETED') {
      this.items.delete(key);
      this.versions.delete(key);
    } else {
      if (previous && version !== undefined && this.versions.get(key) === version) return undefined;
      this.items.set(key, item);
      if (version !== undefined) this.versions.set(key, version);
    }
    if (!announce) return undefined;
    return (
      this.listener.onChange?.({
        type: type === 'DELETED' ? type : previous ? 'MODIFIED' : 'ADDED',
        item,
        previous,
      }) ?? undefined
    );
  }

  /**
   * Lists one target into the map, replacing what was known of it; when `announce`, reports what changed
   * (objects whose resourceVersion is unchanged are not reported again). Returns the list's version.
   */
  private async list(target: Target, announce: boolean): Promise<ListedVersion> {
    const { kind, namespace } = target;
    const prefix = namespace === undefined ? `${kindKey(kind)}/` : `${kindKey(kind)}/${namespace}/`;
    const gone = new Set([...this.items.keys()].filter((key) => key.startsWith(prefix)));
    const listed: ListedVersion = {};
    const selection = {
      ...kind,
      namespace,
      labelSelector: this.selection.labelSelector,
      pageSize: this.tuning.pageSize,
      signal: this.controller.signal,
    };
    for await (const page of listPages(this.client, selection, listed)) {
      for (const object of page) {
        gone.delete(`${kindKey(kind)}/${object.metadata.namespace ?? ''}/${object.metadata.name}`);
        const held = this.record('MODIFIED', kind, object, announce);
        if (held) await untilSettledOrAborted(held, this.controller.signal);
      }
    }
    for (const key of gone) {
      const previous = this.items.get(key) as StatusItem;
      this.items.delete(key);
      this.versions.delete(key);
      if (!announce) continue;
      const held = this.listener.onChange?.({ type: 'DELETED', item: previous, previous });
      if (held) await untilSettledOrAborted(held, this.controller.signal);
    }
    return listed;
  }

  /** Turns what stopped a watch into a warning, or, when it is fatal, stops every watch. */
  private fail(target: Target, error: unknown): void {
    let warning: StatusWarning;
    try {
      warning = warningOf(target.kind, target.namespace, error, this.selection);
    } catch (fatal) {
      if (this.fatal === undefined) {
        this.fatal = fatal;
        this.controller.abort();
        this.listener.onFatal?.(fatal);
      }
      return;
    }
    this.warnings.push(warning);
    this.listener.onWarning?.(warning);
  }

  private async follow(target: Target, from: string | undefined): Promise<void> {
    const signal = this.controller.signal;
    let version = from;
    const relists = new Backoff();
    const selection = {
      ...target.kind,
      namespace: target.namespace,
      labelSelector: this.selection.labelSelector,
    };
    while (!signal.aborted) {
      try {
        for await (const event of watchObjects(this.client, selection, version, signal, this.tuning.watch)) {
          relists.reset();
          version = event.object.metadata.resourceVersion ?? version;
          const held = this.record(event.type, target.kind, event.object, true);
          if (held) await untilSettledOrAborted(held, signal);
        }
        return;
      } catch (error) {
        if (signal.aborted) return;
        if (!(error instanceof WatchExpired)) return this.fail(target, error);
      }
      try {
        await relists.wait(signal);
        if (signal.aborted) return;
        version = (await this.list(target, true)).resourceVersion;
      } catch (error) {
        if (signal.aborted) return;
        return this.fail(target, error);
      }
    }
  }
}

/** Waits for a listener's backpressure to clear, or for the view to stop, whichever comes first. */
async function untilSettledOrAborted(held: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([held, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
