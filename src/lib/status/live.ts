import type { KubeClient } from '../kube/client.ts';
import type { ListedVersion } from '../kube/list.ts';
import { WatchExpired, watchObjects } from '../kube/watch.ts';
import {
  defaultTuning,
  forEachBounded,
  itemOf,
  itemsOfKind,
  kindsFor,
  type ListTuning,
  warningOf,
} from './collect.ts';
import type { AsoKind } from './kinds.ts';
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

function keyOf(item: StatusItem): string {
  return `${kindKey(item)}/${item.namespace ?? ''}/${item.name}`;
}

/**
 * Every selected ASO object's report line, kept current from watch events: one list per type (for the
 * starting snapshot and its resourceVersion), then one watch per type from that version. A watch whose
 * version has expired lists its type again and carries on. Holds one small line per object, whatever its
 * state, because a state filter is applied to what is shown, not to what is watched.
 */
export class LiveStatus {
  readonly items = new Map<string, StatusItem>();
  readonly warnings: StatusWarning[] = [];
  private readonly client: KubeClient;
  private readonly selection: StatusSelection;
  private readonly tuning: Required<ListTuning>;
  private readonly watches: Promise<void>[] = [];

  constructor(client: KubeClient, selection: StatusSelection, tuning: ListTuning = {}) {
    this.client = client;
    this.selection = selection;
    this.tuning = { ...defaultTuning, ...tuning };
  }

  /**
   * Lists every selected type, then starts watching them; resolves once the snapshot is complete.
   * `onChange` hears every later change until `signal` aborts.
   */
  async start(signal: AbortSignal, onChange: (change: StatusChange) => void): Promise<void> {
    const kinds = await kindsFor(this.client, this.selection);
    const versions = new Map<AsoKind, ListedVersion>();
    await forEachBounded(kinds, this.tuning.concurrency, async (kind) => {
      const listed: ListedVersion = {};
      try {
        await this.list(kind, listed, () => undefined);
        versions.set(kind, listed);
      } catch (error) {
        this.warnings.push(warningOf(kind, this.namespaceOf(kind), error));
      }
    });
    for (const [kind, listed] of versions) {
      this.watches.push(this.follow(kind, listed.resourceVersion, signal, onChange));
    }
  }

  /** Resolves when every watch has ended (after the signal aborts, or when all failed). */
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

  private namespaceOf(kind: AsoKind): string | undefined {
    return kind.namespaced ? this.selection.namespace : undefined;
  }

  /** Lists one type into the map, replacing what was known of it, and reports the differences. */
  private async list(
    kind: AsoKind,
    listed: ListedVersion,
    onChange: (change: StatusChange) => void,
  ): Promise<void> {
    const prefix = `${kindKey(kind)}/`;
    const stale = new Set([...this.items.keys()].filter((key) => key.startsWith(prefix)));
    for await (const page of itemsOfKind(this.client, kind, this.selection, this.tuning.pageSize, listed)) {
      for (const item of page) {
        const key = keyOf(item);
        stale.delete(key);
        const previous = this.items.get(key);
        this.items.set(key, item);
        onChange({ type: previous ? 'MODIFIED' : 'ADDED', item, previous });
      }
    }
    for (const key of stale) {
      const previous = this.items.get(key) as StatusItem;
      this.items.delete(key);
      onChange({ type: 'DELETED', item: previous, previous });
    }
  }

  private async follow(
    kind: AsoKind,
    from: string | undefined,
    signal: AbortSignal,
    onChange: (change: StatusChange) => void,
  ): Promise<void> {
    let version = from;
    const selection = {
      ...kind,
      namespace: this.namespaceOf(kind),
      labelSelector: this.selection.labelSelector,
    };
    while (!signal.aborted) {
      try {
        for await (const event of watchObjects(this.client, selection, version, signal)) {
          version = event.object.metadata.resourceVersion ?? version;
          const item = itemOf(kind, event.object);
          const key = keyOf(item);
          const previous = this.items.get(key);
          if (event.type === 'DELETED') this.items.delete(key);
          else this.items.set(key, item);
          onChange({ type: event.type, item, previous });
        }
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof WatchExpired) {
          const listed: ListedVersion = {};
          try {
            await this.list(kind, listed, onChange);
            version = listed.resourceVersion;
            continue;
          } catch (relistError) {
            this.warnings.push(warningOf(kind, this.namespaceOf(kind), relistError));
            return;
          }
        }
        this.warnings.push(warningOf(kind, this.namespaceOf(kind), error));
        return;
      }
    }
  }
}

/** What `--wait` ends with: the final report, and whether time ran out or `--fail-on` cut it short. */
export interface WaitOutcome {
  report: StatusReport;
  timedOut: boolean;
}

/**
 * Waits until every selected object is Ready at its current generation (a stale Ready is not enough: the
 * operator has not seen the latest spec yet), or until `timeoutMs` passes, or, with `stopWhen`, until an
 * object matches it (e.g. `--fail-on error`: no point waiting for what the operator gave up on). With no
 * object selected it returns at once. `onProgress` hears how many are not Ready yet whenever that changes.
 */
export async function waitForReady(
  client: KubeClient,
  selection: StatusSelection,
  options: {
    timeoutMs: number;
    stopWhen?: ((item: StatusItem) => boolean) | undefined;
    onProgress?: ((notReady: number, total: number) => void) | undefined;
    tuning?: ListTuning;
  },
): Promise<WaitOutcome> {
  const controller = new AbortController();
  const live = new LiveStatus(client, selection, options.tuning);
  let settle: (timedOut: boolean) => void = () => undefined;
  const settled = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  let lastNotReady = -1;
  const check = (): void => {
    let notReady = 0;
    for (const item of live.items.values()) {
      if (!item.ready) notReady++;
      if (options.stopWhen?.(item)) settle(false);
    }
    if (notReady !== lastNotReady) {
      lastNotReady = notReady;
      options.onProgress?.(notReady, live.items.size);
    }
    if (notReady === 0) settle(false);
  };
  const timer = setTimeout(() => settle(true), options.timeoutMs);
  try {
    await Promise.race([live.start(controller.signal, check), settled]);
    check();
    const timedOut = await settled;
    return { report: live.report(), timedOut };
  } finally {
    clearTimeout(timer);
    controller.abort();
    await live.stopped();
  }
}
