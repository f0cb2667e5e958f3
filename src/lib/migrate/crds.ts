import type { KubeClient } from '../kube/client.ts';
import { resourcePath } from '../kube/paths.ts';
import { discoverAsoKinds, selectKinds } from '../status/kinds.ts';

/** One entry of a CRD's `spec.versions`: what `migrate` needs of it. */
export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
}

/** The parts of a CustomResourceDefinition that a migration reads and checks. */
export interface Crd {
  metadata: {
    name: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    annotations?: Record<string, string>;
    /** Who wrote which fields when: tells how recently the spec (and so the storage version) changed. */
    managedFields?: Array<{ time?: string; subresource?: string; fieldsV1?: Record<string, unknown> }>;
  };
  spec: {
    group: string;
    names: { kind: string; plural: string };
    scope: 'Namespaced' | 'Cluster';
    versions: CrdVersion[];
    conversion?: { strategy?: string };
  };
  status?: { storedVersions?: string[] };
}

/** The CRD type itself, as the REST API addresses it. */
export const crdType = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };

/** Reads one CRD by name (`plural.group`). */
export function readCrd(client: KubeClient, name: string): Promise<Crd> {
  return client.request<Crd>({
    path: resourcePath(crdType, undefined, name),
    subject: { verb: 'get', resource: `customresourcedefinitions/${name}` },
  });
}

/**
 * The CRDs of the ASO kinds the cluster serves, narrowed by `--kind` exactly as `status` narrows them
 * (same discovery, same matching, a pattern that matches nothing is an error), sorted by name.
 */
export async function selectedCrds(client: KubeClient, kindPatterns: string[]): Promise<Crd[]> {
  const kinds = selectKinds(await discoverAsoKinds(client), kindPatterns);
  const names = [...new Set(kinds.map((kind) => `${kind.plural}.${kind.group}`))].sort();
  const crds: Crd[] = [];
  for (const name of names) crds.push(await readCrd(client, name));
  return crds;
}

/** The name of the version flagged `storage: true`, or undefined for a CRD without one (never valid). */
export function storageVersionOf(crd: Crd): string | undefined {
  return crd.spec.versions.find((version) => version.storage)?.name;
}

/** The versions the API server serves, in the CRD's order. */
export function servedVersionsOf(crd: Crd): string[] {
  return crd.spec.versions.filter((version) => version.served).map((version) => version.name);
}
