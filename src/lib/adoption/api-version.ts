/**
 * The ARM API version a CRD version name stands for: ASO names versions after the ARM API version they
 * were generated from (`v1api20240801` is `2024-08-01`, `v20250801` is `2025-08-01`, a `preview` suffix is
 * `-preview`, older `v1beta`/`v1alpha1api` prefixes too), so a GET can use the exact version ASO would PUT.
 * Undefined for a name that carries no date, e.g. a storage-only `v1` or a malformed one.
 */
export function apiVersionOf(versionName: string): string | undefined {
  const match = versionName.match(
    /^v\d*(?:alpha\d*|beta\d*)?(?:api)?(\d{4})(\d{2})(\d{2})(preview)?(?:storage)?$/i,
  );
  if (!match) return undefined;
  const [, year, month, day, preview] = match;
  return `${year}-${month}-${day}${preview ? '-preview' : ''}`;
}
