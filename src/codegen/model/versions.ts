import { parseAsoVersion } from '../../lib/aso-version-name.ts';
import type { VersionPrefix } from './types.ts';

/** The prefixes a version name may carry, as the generator config names them. */
export interface Prefixes {
  readonly ga: string;
  readonly plain: string;
  readonly beta: string;
  readonly alpha: string;
}

/**
 * The Kubernetes version name of an ARM API version under a prefix, as ASO names it:
 * `2021-06-01` -> `v1api20210601`; `2020-08-01-preview` -> `v1api20200801preview`.
 */
export function versionName(prefixes: Prefixes, prefix: VersionPrefix, armApiVersion: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(-preview)?$/.exec(armApiVersion);
  if (!match)
    throw new Error(`"${armApiVersion}" is not an ARM API version (YYYY-MM-DD or YYYY-MM-DD-preview)`);
  return `${prefixes[prefix]}${match[1]}${match[2]}${match[3]}${match[4] ? 'preview' : ''}`;
}

/** The storage variant's name of a version: `v1api20210601` -> `v1api20210601storage`. */
export function storageName(version: string): string {
  return `${version}storage`;
}

/** The parts of a version name that decide its order. */
export interface VersionParts {
  readonly prefix: string;
  readonly date: string;
  readonly preview: boolean;
  readonly storage: boolean;
}

/** Splits a version name as the runtime does (`src/lib/aso-version-name.ts`, the operator's regex). */
export function parseVersion(version: string): VersionParts | undefined {
  const parsed = parseAsoVersion(version);
  if (!parsed) return undefined;
  return {
    prefix: parsed.prefix.slice(1),
    date: parsed.date,
    preview: parsed.preview,
    storage: parsed.storage,
  };
}

const prefixRank: Record<string, number> = { '1alpha1api': 0, '1beta': 1, '1api': 2, '': 3 };

/**
 * Orders versions as the operator's tooling does: non-preview beats preview; any prefix beats v1alpha1api,
 * then v1beta; a newer date wins; at the same date the plain `vYYYYMMDD` beats `v1apiYYYYMMDD`.
 * Negative when `a` is older than `b`.
 */
export function compareVersions(a: string, b: string): number {
  return compareParts(mustParse(a), mustParse(b), true);
}

/** As {@link compareVersions}, but ignoring the preview flag: where a preview version sits in time. */
export function compareIgnoringPreview(a: string, b: string): number {
  return compareParts(mustParse(a), mustParse(b), false);
}

function compareParts(a: VersionParts, b: VersionParts, previewFirst: boolean): number {
  if (previewFirst && a.preview !== b.preview) return a.preview ? -1 : 1;
  const ra = Math.min(prefixRank[a.prefix] ?? 0, 2);
  const rb = Math.min(prefixRank[b.prefix] ?? 0, 2);
  if (ra !== rb) return ra - rb;
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  const pa = prefixRank[a.prefix] ?? 0;
  const pb = prefixRank[b.prefix] ?? 0;
  if (pa !== pb) return pa - pb;
  if (a.preview !== b.preview) return a.preview ? -1 : 1;
  return 0;
}

function mustParse(version: string): VersionParts {
  const parts = parseVersion(version);
  if (!parts) throw new Error(`"${version}" is not an ASO version name`);
  return parts;
}

/** The date part of an ARM API version, for "introduced at" comparisons in the config: `2021-06-01`. */
export function armDate(armApiVersion: string): string {
  return armApiVersion.slice(0, 10);
}
