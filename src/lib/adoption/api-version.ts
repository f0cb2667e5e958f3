import { parseAsoVersion } from '../aso-version-name.ts';

/**
 * The ARM API version a CRD version name stands for: ASO names versions after the ARM API version they
 * were generated from (`v1api20240801` is `2024-08-01`, `v20250801` is `2025-08-01`, a `preview` suffix is
 * `-preview`, older `v1beta`/`v1alpha1api` prefixes too), so a GET can use the exact version ASO would PUT.
 * Undefined for a name that carries no date, e.g. a storage-only `v1` or a malformed one.
 */
export function apiVersionOf(versionName: string): string | undefined {
  const parsed = parseAsoVersion(versionName);
  if (parsed?.date.length !== 8) return undefined;
  const { date } = parsed;
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}${parsed.preview ? '-preview' : ''}`;
}
