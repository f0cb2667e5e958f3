import { releaseCatalog } from '../../../generated/releases.ts';
import type { KubeClient } from '../kube/client.ts';
import { type AppliedVersionFinding, appliedVersionFindings } from './applied-version-findings.ts';
import { hopsBetween } from './hops.ts';
import { type InstalledOperator, installedOperator } from './installed-operator.ts';
import type { ReleaseCatalog } from './release-types.ts';
import { type StorageMoveFinding, storageMoveFindings } from './storage-moves.ts';
import { type StoredVersionFinding, storedVersionFindings } from './stored-version-findings.ts';

/** What {@link readCluster} read: the operator's install and the cluster's findings for the hops. */
export interface ClusterReading {
  readonly installed: InstalledOperator;
  readonly storedVersions: readonly StoredVersionFinding[];
  readonly appliedVersions: readonly AppliedVersionFinding[];
  /** CRDs whose storage version a hop moves (not removes), with who clears the old stored version. */
  readonly storageMoves: readonly StorageMoveFinding[];
}

/**
 * The cluster side of the upgrade check: what the cluster runs, the CRDs whose stored versions the hops
 * from its release to `to` remove, the objects last written at an API version they remove, and the storage
 * moves with what the operator does about them itself. Only reads.
 */
export async function readCluster(
  client: KubeClient,
  to: string,
  catalog: ReleaseCatalog = releaseCatalog,
): Promise<ClusterReading> {
  const installed = await installedOperator(client);
  const hops = hopsBetween(catalog, installed.release, to);
  const crdManagement = installed.deployment?.crdManagement;
  return {
    installed,
    storedVersions: await storedVersionFindings(client, installed.crds, hops, catalog, crdManagement),
    appliedVersions: await appliedVersionFindings(client, installed.crds, hops),
    storageMoves: storageMoveFindings(catalog, installed.crds, hops, crdManagement),
  };
}
