/**
 * The storage versions of one kind and how they chain to the hub (seed 000): each API version converts to
 * its own storage variant; each storage variant converts to the next newer one; the hub is the newest
 * non-preview storage version. A preview storage variant links to the next non-preview one after it in time,
 * so that the non-preview chain never passes through a preview.
 */
export interface KindGraph {
  readonly group: string;
  readonly kind: string;
  /** API (spoke) versions, oldest first. */
  readonly apiVersions: readonly string[];
  /** Storage versions, oldest first. */
  readonly storageVersions: readonly string[];
  readonly hub: string;
  /** Storage version -> the next storage version towards the hub; the hub has none. */
  readonly next: ReadonlyMap<string, string>;
}

/** Every kind's graph, sorted by group and kind. */
export interface ConversionGraph {
  readonly kinds: readonly KindGraph[];
}
