/** One kind in the generated resource catalog (generated/catalog.ts). */
export interface CatalogEntry {
  readonly group: string;
  readonly kind: string;
  /** The plural resource name its CRD serves (`storageaccounts`, `redis`). */
  readonly plural: string;
  /** The ARM resource type, e.g. `Microsoft.DBforPostgreSQL/flexibleServers/databases`. */
  readonly armType: string;
  /** The one name ARM allows (`default` for a blob service); such a kind has no `spec.azureName`. */
  readonly fixedName?: string;
  readonly scope: 'resourceGroup' | 'subscription' | 'extension' | 'tenant';
  /** Kinds that may own it; `any` for extension resources; empty when it has no owner. */
  readonly owners: 'any' | readonly { readonly group: string; readonly kind: string }[];
  readonly versions: readonly {
    readonly version: string;
    readonly armApiVersion: string;
    readonly preview: boolean;
    readonly prefix: string;
  }[];
  readonly storageVersions: readonly string[];
  readonly hub: string;
  /** Per version: spec paths that cannot change after creation (ARM `x-ms-mutability` without update). */
  readonly immutable: Readonly<Record<string, readonly string[]>>;
  /**
   * Per version: spec paths ARM never returns (`x-ms-mutability` without read: the operator's status lacks
   * them), so a GET cannot show what Azure holds there (`[*]` for any element of a list or map). A version
   * without any is not listed.
   */
  readonly writeOnly: Readonly<Record<string, readonly string[]>>;
}

/**
 * A kind the operator manages without ARM (a database user over SQL, an Entra group over Microsoft Graph):
 * it has no ARM identity to check or predict, and its versions need no conversion.
 */
export interface KindWithoutArm {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly versions: readonly string[];
}
