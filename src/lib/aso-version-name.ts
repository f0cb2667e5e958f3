/**
 * The prefixes an ASO version name can carry, oldest era first: `v1alpha1api` (alpha, until v2.0.0),
 * `v1beta` (beta, until v2.4.0), `v1api` (GA) and the plain `v` of the newest releases.
 */
export const versionPrefixes = ['v1alpha1api', 'v1beta', 'v1api', 'v'] as const;

/** One of {@link versionPrefixes}. */
export type VersionPrefix = (typeof versionPrefixes)[number];

/** An ASO version name taken apart: `v1api20230202previewstorage` is v1api, 20230202, preview, storage. */
export interface AsoVersionName {
  readonly name: string;
  readonly prefix: VersionPrefix;
  /** `YYYYMMDD`, or a single digit for an undated name such as `v1`. */
  readonly date: string;
  readonly preview: boolean;
  readonly storage: boolean;
}

const pattern = /^v(1api|1alpha1api|1beta)?(\d{8}|\d)(preview)?(storage)?$/;

/**
 * Parses a CRD version name by the regex the operator's own tooling uses (aso-conventions.md); undefined
 * for a name that is not an ASO version. The runtime needs this apart from the generator's parser
 * (src/codegen) because `migrate` judges versions of CRDs it did not generate, and from the adoption
 * parser because that one only extracts the ARM date.
 */
export function parseAsoVersion(name: string): AsoVersionName | undefined {
  const match = pattern.exec(name);
  if (!match) return undefined;
  return {
    name,
    prefix: `v${match[1] ?? ''}` as VersionPrefix,
    date: match[2] ?? '',
    preview: match[3] !== undefined,
    storage: match[4] !== undefined,
  };
}

const rank: Record<VersionPrefix, number> = { v1alpha1api: 0, v1beta: 1, v1api: 2, v: 3 };

/**
 * Orders two parsed names as the operator's tooling does: a preview is older than any non-preview; then
 * `v1alpha1api` is older than `v1beta`, which is older than any other prefix; then the newer date wins; at
 * the same date plain `v` beats `v1api`. A storage variant sorts with its API version. Negative when `a`
 * is older.
 */
export function compareAsoVersions(a: AsoVersionName, b: AsoVersionName): number {
  if (a.preview !== b.preview) return a.preview ? -1 : 1;
  const era = (name: AsoVersionName) => Math.min(rank[name.prefix], 2);
  if (era(a) !== era(b)) return era(a) - era(b);
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (rank[a.prefix] !== rank[b.prefix]) return rank[a.prefix] - rank[b.prefix];
  if (a.storage !== b.storage) return a.storage ? 1 : -1;
  return 0;
}

/** The newest of some version names by {@link compareAsoVersions}; names that are not ASO versions are ignored. */
export function newestAsoVersion(names: readonly string[]): AsoVersionName | undefined {
  let newest: AsoVersionName | undefined;
  for (const name of names) {
    const parsed = parseAsoVersion(name);
    if (parsed && (!newest || compareAsoVersions(parsed, newest) > 0)) newest = parsed;
  }
  return newest;
}
