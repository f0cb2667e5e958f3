import type { KubeClient } from '../kube/client.ts';
import type { InstalledCrd } from './installed-operator.ts';
import type { ReleaseCatalog, ReleaseHop } from './release-types.ts';
import { storedVersionCleanup } from './storage-moves.ts';

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
 * old ones). When the hop removes the storage version itself, no migration before the upgrade can fix it:
 * the fix is the earlier hop that moves the storage away, and whoever clears the old version after it
 * (storage-moves.ts; `crdManagement` as there).
 */
export async function storedVersionFindings(
  client: KubeClient,
  crds: readonly InstalledCrd[],
  hops: readonly ReleaseHop[],
  catalog: ReleaseCatalog,
  crdManagement: string | undefined,
): Promise<StoredVersionFinding[]> {
  const findings: StoredVersionFinding[] = [];
  for (const crd of crds) {
    for (const hop of hops) {
      const removed = hop.kinds[crd.kind]?.removedVersions ?? [];
      const versions = crd.storedVersions.filter((v) => removed.includes(v));
      if (versions.length === 0) continue;
      findings.push({
        hop: `${hop.from} -> ${hop.to}`,
        crd: crd.name,
        kind: crd.kind,
        versions,
        objects: await objectCount(client, crd),
        fix: storedVersionFix(catalog, hops, hop, crd, crdManagement),
      });
      break;
    }
  }
  return findings;
}

/**
 * The fix for a CRD whose stored versions `hop` (one of `hops`) removes: `kubectl aso migrate` to the CRD's
 * storage version while the hop keeps it; when the hop removes the storage version itself, the earlier hop
 * that moves the storage away, and who clears the old version after it.
 */
export function storedVersionFix(
  catalog: ReleaseCatalog,
  hops: readonly ReleaseHop[],
  hop: ReleaseHop,
  crd: InstalledCrd,
  crdManagement: string | undefined,
): string {
  if (!(hop.kinds[crd.kind]?.removedVersions ?? []).includes(crd.storage))
    return `kubectl aso migrate --to ${crd.storage.replace(/storage$/, '')} --kind ${crd.name}`;
  const earlier = hops.slice(0, hops.indexOf(hop));
  const moving = earlier.find((h) => h.kinds[crd.kind]?.storage?.from === crd.storage);
  const move = moving?.kinds[crd.kind]?.storage;
  if (moving === undefined || move === undefined)
    return `${hop.to} removes the storage version ${crd.storage} itself: upgrade first to a release that moves the storage version`;
  const cleanup = storedVersionCleanup(catalog, moving, crd.name, move.from, move.to, crdManagement);
  return `${hop.to} removes the storage version ${crd.storage}: upgrade to ${moving.to} first, which moves it to ${move.to}; ${cleanup.how}; then go on`;
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
