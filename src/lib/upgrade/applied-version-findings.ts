import type { KubeClient } from '../kube/client.ts';
import { type KubeObject, listPages, metadataOnly } from '../kube/list.ts';
import type { InstalledCrd } from './installed-operator.ts';
import type { ReleaseHop } from './release-types.ts';

/**
 * Objects whose manifest was last applied at a version a hop removes: the API server still serves them at
 * the versions the newer release keeps, so they work after the upgrade, until their manifest is applied
 * again and refused. A warning, per kind, namespace and version.
 */
export interface AppliedVersionFinding {
  readonly hop: string;
  readonly kind: string;
  readonly namespace: string;
  /** The removed API version the objects were applied at. */
  readonly version: string;
  readonly objects: number;
  /** The first few names, for the reader to find them. */
  readonly names: readonly string[];
  readonly fix: string;
}

type Managed = { apiVersion?: string; subresource?: string; operation?: string };
type Listed = KubeObject & { metadata: KubeObject['metadata'] & { managedFields?: Managed[] } };

/** The API versions an object was written at by its clients: managedFields outside status, last-applied. */
export function appliedVersionsOf(object: Listed): Set<string> {
  const versions = new Set<string>();
  for (const entry of object.metadata.managedFields ?? []) {
    if (entry.apiVersion && (entry.subresource ?? '') === '') versions.add(entry.apiVersion);
  }
  const lastApplied = object.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  const match = lastApplied === undefined ? null : /"apiVersion"\s*:\s*"([^"]+)"/.exec(lastApplied);
  if (match?.[1]) versions.add(match[1]);
  return versions;
}

/**
 * For every installed CRD that a hop takes an API version from, the objects written at that version, read
 * as metadata only, page by page. An object counts in the first hop that removes one of its versions.
 */
export async function appliedVersionFindings(
  client: KubeClient,
  crds: readonly InstalledCrd[],
  hops: readonly ReleaseHop[],
): Promise<AppliedVersionFinding[]> {
  const findings = new Map<
    string,
    { finding: Omit<AppliedVersionFinding, 'objects' | 'names'>; names: string[] }
  >();
  for (const crd of crds) {
    const removed = hops.flatMap((hop) =>
      (hop.kinds[crd.kind]?.removedVersions ?? [])
        .filter((v) => !v.endsWith('storage'))
        .map((version) => ({ hop, version })),
    );
    if (removed.length === 0) continue;
    const group = crd.kind.slice(0, crd.kind.indexOf('/'));
    const dot = crd.name.indexOf('.');
    const selection = {
      group,
      version: crd.storage,
      plural: crd.name.slice(0, dot),
      namespaced: true,
      accept: metadataOnly,
    };
    for await (const page of listPages<Listed>(client, selection)) {
      for (const object of page) {
        const applied = appliedVersionsOf(object);
        const hit = removed.find(({ version }) => applied.has(`${group}/${version}`));
        if (hit === undefined) continue;
        const namespace = object.metadata.namespace ?? '';
        const key = `${hit.hop.to}\u0000${crd.kind}\u0000${namespace}\u0000${hit.version}`;
        let entry = findings.get(key);
        if (entry === undefined) {
          entry = {
            finding: {
              hop: `${hit.hop.from} -> ${hit.hop.to}`,
              kind: crd.kind,
              namespace,
              version: hit.version,
              fix: `rewrite their manifests before reapplying them: kubectl aso upgrade-check -f FILES --to ${hops[hops.length - 1]?.to}`,
            },
            names: [],
          };
          findings.set(key, entry);
        }
        entry.names.push(object.metadata.name);
      }
    }
  }
  return [...findings.values()].map(({ finding, names }) => ({
    ...finding,
    objects: names.length,
    names: names.slice(0, 5),
  }));
}
