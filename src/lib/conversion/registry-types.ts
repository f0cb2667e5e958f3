import type { ResourceConverter } from './resource.ts';

/** One version of a kind: how to step from it towards the hub, and how to step into it from above. */
export interface VersionEntry {
  readonly storage: boolean;
  /** Absent on the hub. */
  readonly up?: { readonly to: string; readonly convert: ResourceConverter };
  /** Absent on the hub: converts from `from` (the version above) into this one. */
  readonly down?: { readonly from: string; readonly convert: ResourceConverter };
}

/** A kind's versions and its hub (the newest non-preview storage version). */
export interface KindEntry {
  readonly hub: string;
  readonly versions: Readonly<Record<string, VersionEntry>>;
}

/** Every convertible group (full name, e.g. `dbforpostgresql.azure.com`) -> kind -> versions. */
export interface ConversionRegistry {
  readonly groups: Readonly<Record<string, Readonly<Record<string, KindEntry>>>>;
}
