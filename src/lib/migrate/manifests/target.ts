import { type AsoVersionName, newestAsoVersion, parseAsoVersion } from '../../aso-version-name.ts';
import type { TargetSpec } from '../target.ts';

/**
 * The API version a manifest moves to, or why none fits. `leaveAsIs` marks a prefix or an exact version the
 * kind has no version with at all: nothing to move to, which is not a failure (a run over many kinds asks
 * `--to v` while some kinds have no `v` version yet; a file holds other kinds beside the one an exact version
 * is for), so the object stays as it is with the reason.
 */
export type ManifestTarget =
  | { version: string }
  | { version: undefined; reason: string; leaveAsIs?: boolean };

/**
 * The API version `--to` names for one manifest. Manifests are written at API versions, never at storage
 * variants, so storage names are left out; otherwise a prefix and `latest` pick the newest version as the
 * cluster path does ({@link resolveTarget}). `versions` are the kind's known versions (the catalog's, or
 * the cluster CRD's); without any, only a prefix can be answered, by the rename at the object's own ARM
 * date. `sameDate` limits the choice to the object's ARM date (and preview-ness): for a kind the catalog
 * lacks, a rename is the only conversion there is.
 */
export function manifestTarget(
  spec: TargetSpec,
  from: AsoVersionName,
  versions: readonly string[] | undefined,
  sameDate: boolean,
): ManifestTarget {
  if (spec.kind === 'exact' && parseAsoVersion(spec.version)?.storage) {
    return {
      version: undefined,
      reason: `${spec.version} is a storage version; manifests name API versions`,
    };
  }
  const atSameDate = (name: AsoVersionName) => name.date === from.date && name.preview === from.preview;
  if (versions === undefined) {
    if (spec.kind === 'latest')
      return { version: undefined, reason: "--to latest needs the kind's versions, from the cluster's CRD" };
    const version =
      spec.kind === 'exact' ? spec.version : `${spec.prefix}${from.date}${from.preview ? 'preview' : ''}`;
    const parsed = parseAsoVersion(version);
    if (sameDate && parsed && !atSameDate(parsed))
      return { version: undefined, reason: notARename(from, version) };
    return { version };
  }
  const candidates = versions
    .map((name) => parseAsoVersion(name))
    .filter((name): name is AsoVersionName => name !== undefined && !name.storage)
    .filter((name) => !sameDate || atSameDate(name));
  if (spec.kind === 'exact') {
    if (candidates.some((name) => name.name === spec.version)) return { version: spec.version };
    const parsed = parseAsoVersion(spec.version);
    if (sameDate && versions.includes(spec.version) && parsed && !atSameDate(parsed))
      return { version: undefined, reason: notARename(from, spec.version) };
    // A file may hold other kinds (upgrade-check prints one exact version per object): those stay as they are.
    return { version: undefined, reason: `the kind has no version ${spec.version}`, leaveAsIs: true };
  }
  const pool = spec.kind === 'latest' ? candidates : candidates.filter((name) => name.prefix === spec.prefix);
  const newest = newestAsoVersion(pool.map((name) => name.name));
  if (newest) return { version: newest.name };
  if (spec.kind === 'prefix' && !versions.some((v) => parseAsoVersion(v)?.prefix === spec.prefix))
    return {
      version: undefined,
      reason: `the kind has no version with the prefix ${spec.prefix}`,
      leaveAsIs: true,
    };
  const which = spec.kind === 'latest' ? 'no API version' : `no version with the prefix ${spec.prefix}`;
  return {
    version: undefined,
    reason: `the kind has ${which}${sameDate ? ` at ${from.name}'s ARM date` : ''}`,
  };
}

function notARename(from: AsoVersionName, to: string): string {
  return `${to} is not at ${from.name}'s ARM date; the catalog does not know this kind, so only a rename at the same date is possible`;
}
