/**
 * The release catalog `generated/releases.ts` holds: what each ASO release the catalog knows ships, and
 * what changes from one to the next. Derived from the operator's Go module (`npm run releases:import`), so
 * an upgrade check needs neither the operator's released CRDs nor a network.
 */

/** One kind (`group/Kind`) in one release: the versions its CRD serves, and its storage version. */
export interface ReleaseKind {
  readonly served: readonly string[];
  readonly storage: string;
}

/** A property whose type changes between two releases in a version both serve. */
export interface RetypedProperty {
  /** The property's path: `spec.sku.tier`; `[]` for a list's items, `{}` for a map's values. */
  readonly path: string;
  /** The JSON schema type before and after (`string`, `object`, `array`, ...; `any` for free-form JSON). */
  readonly from: string;
  readonly to: string;
}

/** What changes for one kind from one release to the next. Empty fields are left out. */
export interface KindChanges {
  /** Versions the older release serves and the newer one does not. */
  readonly removedVersions?: readonly string[];
  /** Versions the newer release serves and the older one does not. */
  readonly addedVersions?: readonly string[];
  /** The storage version, when it moves. */
  readonly storage?: { readonly from: string; readonly to: string };
  /** Per version both serve: the properties the newer release no longer has (the topmost of each subtree). */
  readonly removedProperties?: Readonly<Record<string, readonly string[]>>;
  /** Per version both serve: the properties whose type changes (the topmost of each subtree). */
  readonly retypedProperties?: Readonly<Record<string, readonly RetypedProperty[]>>;
}

/** From one release the catalog knows to the next one it knows. */
export interface ReleaseHop {
  readonly from: string;
  readonly to: string;
  /** Kinds only the newer release has, and kinds only the older one has. */
  readonly addedKinds: readonly string[];
  readonly removedKinds: readonly string[];
  /** The kinds both have that change, by `group/Kind`. */
  readonly kinds: Readonly<Record<string, KindChanges>>;
}

/** What a release's operator does by itself once it runs, as its Go module's code shows. */
export interface ReleaseOperator {
  /**
   * With `--crd-management auto` it removes older versions from each CRD's `status.storedVersions` (keeping
   * the newest) once every object has been reconciled by it, which stores the object at the current storage
   * version: a storage version that moves then needs nothing from the user.
   */
  readonly cleansStoredVersions: boolean;
}

/** The whole catalog: releases oldest first, each one's kinds, and the hop between each consecutive pair. */
export interface ReleaseCatalog {
  readonly releases: readonly string[];
  /** Per release: what its operator does by itself. */
  readonly operators: Readonly<Record<string, ReleaseOperator>>;
  readonly kinds: Readonly<Record<string, Readonly<Record<string, ReleaseKind>>>>;
  readonly hops: readonly ReleaseHop[];
}
