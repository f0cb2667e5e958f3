import {
  newestAsoVersion,
  parseAsoVersion,
  type VersionPrefix,
  versionPrefixes,
} from '../aso-version-name.ts';
import { UsageError } from '../errors.ts';

/**
 * What `--to` asked for: the newest version of the CRD (`latest`), the newest version under a prefix
 * (`v1api`), or one version by name (`v1api20240801` or `v1api20240801storage`).
 */
export type TargetSpec =
  | { kind: 'latest' }
  | { kind: 'prefix'; prefix: VersionPrefix }
  | { kind: 'exact'; version: string };

/** Parses `--to`; anything but `latest`, a prefix or an ASO version name is a usage error. */
export function parseTarget(value: string): TargetSpec {
  const text = value.trim();
  if (text === 'latest') return { kind: 'latest' };
  const prefix = versionPrefixes.find((candidate) => candidate === text);
  if (prefix) return { kind: 'prefix', prefix };
  if (parseAsoVersion(text)) return { kind: 'exact', version: text };
  throw new UsageError(
    `--to: "${value}" is not latest, a prefix (${versionPrefixes.join(', ')}) or an ASO version name such as v1api20240801`,
  );
}

/** The target as the user wrote it, for messages and the JSON report. */
export function describeTarget(spec: TargetSpec): string {
  if (spec.kind === 'latest') return 'latest';
  return spec.kind === 'prefix' ? spec.prefix : spec.version;
}

/** The version a CRD's objects must end stored at, or why the CRD has none for this `--to`. */
export type ResolvedTarget = { version: string } | { version: undefined; reason: string };

/**
 * The storage version `--to` names in one CRD. Objects are stored at storage variants (`...storage`), so a
 * prefix or `latest` picks the newest storage variant when the CRD has any (and the newest version when it
 * has none), and an exact API version name stands for its storage variant when the CRD has one.
 */
export function resolveTarget(spec: TargetSpec, versions: readonly string[]): ResolvedTarget {
  if (spec.kind === 'exact') {
    const storageVariant = `${spec.version}storage`;
    if (!spec.version.endsWith('storage') && versions.includes(storageVariant))
      return { version: storageVariant };
    if (versions.includes(spec.version)) return { version: spec.version };
    return { version: undefined, reason: `the CRD has no version ${spec.version}` };
  }
  const candidates =
    spec.kind === 'latest'
      ? [...versions]
      : versions.filter((version) => parseAsoVersion(version)?.prefix === spec.prefix);
  const storageVariants = candidates.filter((version) => parseAsoVersion(version)?.storage);
  const newest = newestAsoVersion(storageVariants.length > 0 ? storageVariants : candidates);
  if (newest) return { version: newest.name };
  return {
    version: undefined,
    reason:
      spec.kind === 'latest'
        ? 'the CRD has no ASO-named version'
        : `the CRD has no version with the prefix ${spec.prefix}`,
  };
}
