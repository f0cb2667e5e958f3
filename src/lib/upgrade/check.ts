import { releaseCatalog } from '../../../generated/releases.ts';
import type { ExitCodeName } from '../exit-codes.ts';
import type { LocatedObject } from '../manifests/read.ts';
import { hopsBetween, releaseName } from './hops.ts';
import type { InstalledOperator } from './installed-operator.ts';
import { type ManifestFinding, manifestFindings } from './manifest-findings.ts';
import type { ClusterReading } from './read-cluster.ts';
import type { ReleaseCatalog, ReleaseHop } from './release-types.ts';

/** What one hop changes, counted per kind, for the plan's overview. */
export interface HopSummary {
  readonly from: string;
  readonly to: string;
  /** Minor releases the hop spans that the catalog does not hold (the module proxy does not serve them). */
  readonly spans: readonly string[];
  readonly addedKinds: number;
  /** Kinds that lose a served version, with the versions. */
  readonly removedVersions: Readonly<Record<string, readonly string[]>>;
  /** Kinds whose storage version moves. */
  readonly storageMoves: number;
  /** Whether the newer release's operator clears moved-away stored versions itself (with `--crd-management auto`). */
  readonly operatorCleansStoredVersions: boolean;
  /** Kinds that lose or retype a property in a version both releases serve. */
  readonly propertyChanges: number;
}

/** The result of `kubectl aso upgrade-check`: the hops, and each finding with its fix. */
export interface UpgradeCheckReport {
  readonly from: string;
  readonly to: string;
  readonly hops: readonly HopSummary[];
  /** The cluster, when it was read: what runs there, and the CRDs whose stored versions block a hop. */
  readonly cluster?: Omit<ClusterReading, 'installed'> & {
    readonly installed: Omit<InstalledOperator, 'crds'> & { readonly crds: number };
  };
  /** Manifest files checked (`-f`): how many ASO objects, and what in them the hops break. */
  readonly manifests?: { readonly objects: number; readonly findings: readonly ManifestFinding[] };
  /** Findings that must be fixed before the upgrade; warnings. */
  readonly blocking: number;
  readonly warnings: number;
}

/** What to check: the releases, and the manifests' objects when `-f` was given. */
export interface UpgradeCheckInput {
  readonly from: string;
  readonly to: string;
  readonly manifests?: readonly LocatedObject[];
  /** The cluster as read, with its findings for these hops (read-cluster.ts). */
  readonly cluster?: ClusterReading;
}

/**
 * The upgrade check over the release catalog: the hops from `from` to `to`; for manifests every use of a
 * version or property a hop removes or retypes; and the cluster's stored-version findings, read before. A
 * manifest finding blocks: after the hop the manifest no longer applies, so the next sync of it fails; a
 * stored-version finding blocks the CRD upgrade itself. Reads nothing but its input, writes nothing.
 */
export function checkUpgrade(
  input: UpgradeCheckInput,
  catalog: ReleaseCatalog = releaseCatalog,
): UpgradeCheckReport {
  const hops = hopsBetween(catalog, input.from, input.to);
  const findings =
    input.manifests === undefined ? undefined : manifestFindings(input.manifests, hops, catalog);
  return {
    from: releaseName(input.from),
    to: releaseName(input.to),
    hops: hops.map((hop) => hopSummary(hop, catalog)),
    ...(input.cluster !== undefined
      ? {
          cluster: {
            installed: { ...input.cluster.installed, crds: input.cluster.installed.crds.length },
            storedVersions: input.cluster.storedVersions,
            appliedVersions: input.cluster.appliedVersions,
            storageMoves: input.cluster.storageMoves,
          },
        }
      : {}),
    ...(input.manifests !== undefined && findings !== undefined
      ? { manifests: { objects: input.manifests.length, findings } }
      : {}),
    blocking: (findings?.length ?? 0) + (input.cluster?.storedVersions.length ?? 0),
    warnings: input.cluster?.appliedVersions.length ?? 0,
  };
}

/** The exit code of a report: ready, blocking findings, or warnings only. */
export function upgradeCheckExit(report: UpgradeCheckReport): ExitCodeName {
  if (report.blocking > 0) return 'upgradeBlocked';
  if (report.warnings > 0) return 'upgradeWarnings';
  return 'ok';
}

function hopSummary(hop: ReleaseHop, catalog: ReleaseCatalog): HopSummary {
  const removedVersions: Record<string, readonly string[]> = {};
  let storageMoves = 0;
  let propertyChanges = 0;
  for (const [kind, changes] of Object.entries(hop.kinds)) {
    const apiVersions = changes.removedVersions?.filter((v) => !v.endsWith('storage')) ?? [];
    if (apiVersions.length > 0) removedVersions[kind] = apiVersions;
    if (changes.storage) storageMoves++;
    if (changes.removedProperties || changes.retypedProperties) propertyChanges++;
  }
  return {
    from: hop.from,
    to: hop.to,
    spans: skippedMinors(hop.from, hop.to),
    addedKinds: hop.addedKinds.length,
    removedVersions,
    storageMoves,
    operatorCleansStoredVersions: catalog.operators[hop.to]?.cleansStoredVersions === true,
    propertyChanges,
  };
}

/** `v2.18.0`, `v2.20.0` -> `v2.19`: the minor releases between two the catalog holds. */
function skippedMinors(from: string, to: string): string[] {
  const minor = (release: string) => Number(release.split('.')[1]);
  const major = from.split('.')[0];
  const out: string[] = [];
  for (let m = minor(from) + 1; m < minor(to); m++) out.push(`${major}.${m}`);
  return out;
}
