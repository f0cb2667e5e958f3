import type { InstalledCrd } from './installed-operator.ts';
import type { ReleaseCatalog, ReleaseHop } from './release-types.ts';

/**
 * Who clears a version a storage move leaves in a CRD's `status.storedVersions` after a hop: the operator of
 * the newer release by itself, or `kubectl aso migrate` run after the hop. The plan says which, so that it
 * neither runs a migration the operator is already doing nor counts on one the operator never does.
 */
export interface StoredVersionCleanup {
  readonly by: 'operator' | 'migrate';
  readonly how: string;
}

/**
 * How the stored version `from` of `crd` gets cleared once `hop` has moved its storage to `to`. The operator
 * does it when its release cleans stored versions (the catalog, from its module) and it manages its CRDs:
 * `crdManagement` is its `--crd-management`, or undefined when the Deployment was not read, which the answer
 * then states as a condition instead of guessing.
 */
export function storedVersionCleanup(
  catalog: ReleaseCatalog,
  hop: ReleaseHop,
  crd: string,
  from: string,
  to: string,
  crdManagement: string | undefined,
): StoredVersionCleanup {
  const command = `kubectl aso migrate --to ${to.replace(/storage$/, '')} --kind ${crd}`;
  const cleans = catalog.operators[hop.to]?.cleansStoredVersions === true;
  if (!cleans)
    return {
      by: 'migrate',
      how: `ASO ${hop.to} leaves ${from} in storedVersions: after upgrading to ${hop.to}, ${command}`,
    };
  if (crdManagement !== undefined && crdManagement !== 'auto')
    return {
      by: 'migrate',
      how: `ASO ${hop.to} cleans storedVersions only with --crd-management auto (here ${crdManagement}): after upgrading to ${hop.to}, ${command}`,
    };
  const condition = crdManagement === undefined ? ' if it manages its CRDs (--crd-management auto)' : '';
  return {
    by: 'operator',
    how: `ASO ${hop.to} drops ${from} from storedVersions by itself${condition} once it has reconciled every object, which stores it at ${to}: nothing to run`,
  };
}

/** An installed CRD whose storage version a hop moves, and who clears the old one from its stored versions. */
export interface StorageMoveFinding extends StoredVersionCleanup {
  readonly hop: string;
  /** `plural.group`. */
  readonly crd: string;
  readonly kind: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Every installed CRD whose storage version a hop moves while the newer release still serves the old one (a
 * hop that removes it is a stored-version finding instead, stored-version-findings.ts). Nothing here blocks:
 * the old version only has to leave storedVersions before a later release removes it.
 */
export function storageMoveFindings(
  catalog: ReleaseCatalog,
  crds: readonly InstalledCrd[],
  hops: readonly ReleaseHop[],
  crdManagement: string | undefined,
): StorageMoveFinding[] {
  const findings: StorageMoveFinding[] = [];
  for (const crd of crds) {
    for (const hop of hops) {
      const changes = hop.kinds[crd.kind];
      const move = changes?.storage;
      if (move === undefined || changes?.removedVersions?.includes(move.from)) continue;
      findings.push({
        hop: `${hop.from} -> ${hop.to}`,
        crd: crd.name,
        kind: crd.kind,
        from: move.from,
        to: move.to,
        ...storedVersionCleanup(catalog, hop, crd.name, move.from, move.to, crdManagement),
      });
    }
  }
  return findings;
}
