import type { KubeClient } from '../kube/client.ts';
import type { InstalledCrd } from './installed-operator.ts';
import type { ReleaseHop } from './release-types.ts';

/**
 * A CRD whose `status.storedVersions` holds a version a hop removes: applying the newer release's CRD
 * fails (`status.storedVersions[0]: Invalid value ... missing from spec.versions`), so this blocks the
 * upgrade until the objects are rewritten at a version the hop keeps and the stored versions are cleaned.
 */
export interface StoredVersionFinding {
  readonly hop: string;
  /** `plural.group`. */
  readonly crd: string;
  readonly kind: string;
  /** The stored versions the hop removes. */
  readonly versions: readonly string[];
  /** The CRD's objects: any of them may still be stored at those versions until something rewrites it. */
  readonly objects: number;
  readonly fix: string;
}

/**
 * Every installed CRD whose stored versions a hop removes, with its object count and the fix: `kubectl aso
 * migrate` to the CRD's current storage version when the hop keeps that version (the rewrite then clears the
 * old ones), else a note that the storage version itself goes, which no migration before the upgrade can fix.
 */
export async function storedVersionFindings(
  client: KubeClient,
  crds: readonly InstalledCrd[],
  hops: readonly ReleaseHop[],
): Promise<StoredVersionFinding[]> {
  const findings: StoredVersionFinding[] = [];
  for (const crd of crds) {
    for (const hop of hops) {
      const removed = hop.kinds[crd.kind]?.removedVersions ?? [];
      const versions = crd.storedVersions.filter((v) => removed.includes(v));
      if (versions.length === 0) continue;
      const storageRemoved = removed.includes(crd.storage);
      findings.push({
        hop: `${hop.from} -> ${hop.to}`,
        crd: crd.name,
        kind: crd.kind,
        versions,
        objects: await objectCount(client, crd),
        fix: storageRemoved
          ? `${hop.to} removes the storage version ${crd.storage} itself: upgrade first to a release that moves the storage version`
          : `kubectl aso migrate --to ${crd.storage.replace(/storage$/, '')} --kind ${crd.name}`,
      });
      break;
    }
  }
  return findings;
}

/** How many objects of the CRD the cluster holds, in all namespaces, read with one list of one item. */
async function objectCount(client: KubeClient, crd: InstalledCrd): Promise<number> {
  const dot = crd.name.indexOf('.');
  const list = await client.request<{ items: unknown[]; metadata?: { remainingItemCount?: number } }>({
    path: `/apis/${crd.name.slice(dot + 1)}/${crd.storage}/${crd.name.slice(0, dot)}`,
    query: { limit: 1 },
    subject: { verb: 'list', resource: crd.name },
  });
  return list.items.length + (list.metadata?.remainingItemCount ?? 0);
}
