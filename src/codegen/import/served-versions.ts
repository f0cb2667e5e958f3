import type { Prefixes } from '../model/versions.ts';

/**
 * The ARM API version behind a version the operator serves under the GA or plain prefix
 * (`v1api20210401preview` -> `2021-04-01-preview`, `v20250401` -> `2025-04-01`); undefined for storage
 * versions and the alpha and beta compatibility prefixes, which are made from another version's schema.
 */
export function apiVersionOfServed(prefixes: Prefixes, version: string): string | undefined {
  for (const prefix of [prefixes.ga, prefixes.plain].sort((a, b) => b.length - a.length)) {
    if (!version.startsWith(prefix)) continue;
    const match = /^(\d{4})(\d{2})(\d{2})(preview)?$/.exec(version.slice(prefix.length));
    if (match) return `${match[1]}-${match[2]}-${match[3]}${match[4] ? '-preview' : ''}`;
  }
  return undefined;
}
