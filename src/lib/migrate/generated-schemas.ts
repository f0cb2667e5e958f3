import { folderSource, GeneratedCrdStore, installedGeneratedCrds } from '../crds/generated-crds.ts';

/** A CRD version's `openAPIV3Schema`, as JSON. */
export type VersionSchema = Record<string, unknown>;

/** The generated CRD of one kind: its schemas by version name. */
export interface GeneratedCrd {
  group: string;
  kind: string;
  schemas: Map<string, VersionSchema>;
}

/** The generated CRDs of this installation, or why there are none. */
export type GeneratedCrds =
  | { found: true; lookup: (group: string, plural: string) => GeneratedCrd | undefined }
  | { found: false; reason: string };

/**
 * The generated CRDs: client-side conversion is allowed only where the cluster's schemas equal these (the
 * generated conversions are proven for these shapes and no other). A group's CRDs are read when one is
 * first looked up, so a run pays only for the kinds it checks. `dir` names a folder of archives in place
 * of this installation's; a build without them makes client-side conversion unavailable, with that reason.
 */
export function generatedCrds(dir?: string): GeneratedCrds {
  const store = dir === undefined ? installedGeneratedCrds() : new GeneratedCrdStore(folderSource(dir));
  if (store === undefined) {
    return {
      found: false,
      reason: 'this build of kubectl-aso does not carry the generated CRDs (generated/crds)',
    };
  }
  const schemas = new Map<string, GeneratedCrd | undefined>();
  return {
    found: true,
    lookup: (group, plural) => {
      const key = `${plural}.${group}`;
      if (!schemas.has(key)) schemas.set(key, schemasOf(store, group, plural));
      return schemas.get(key);
    },
  };
}

function schemasOf(store: GeneratedCrdStore, group: string, plural: string): GeneratedCrd | undefined {
  const crd = store.ofGroup(group).find((candidate) => candidate.plural === plural);
  if (!crd) return undefined;
  const schemas = new Map<string, VersionSchema>();
  for (const version of crd.document().spec.versions) {
    if (version.schema?.openAPIV3Schema) schemas.set(version.name, version.schema.openAPIV3Schema);
  }
  return { group: crd.group, kind: crd.kind, schemas };
}
