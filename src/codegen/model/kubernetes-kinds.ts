/** The folder, under the schemas folder, of the kinds the operator manages without ARM. */
export const kubernetesKindsDir = 'kubernetes';

/** The first words of every file the import writes there: output, never edited by hand. */
export const kubernetesKindMarker =
  "Written by `npm run schemas:import` from the operator's CRD of a kind it manages without ARM. DO NOT EDIT.";

/**
 * One kind the operator manages without ARM, as the generator reads it: the CRD's names, scope and each
 * version's schema. Nothing is derived, since there is no ARM shape to derive from: the generated CRD is
 * this, and the conversion core knows the kind's versions (one, `v1`, stored as it is served).
 */
export interface KubernetesKindSchema {
  readonly description: string;
  readonly group: string;
  readonly names: {
    readonly categories?: readonly string[];
    readonly kind: string;
    readonly listKind: string;
    readonly plural: string;
    readonly singular: string;
  };
  readonly scope: 'Namespaced' | 'Cluster';
  readonly versions: readonly {
    readonly name: string;
    readonly served: boolean;
    readonly storage: boolean;
    readonly openAPIV3Schema: Record<string, unknown>;
  }[];
}
