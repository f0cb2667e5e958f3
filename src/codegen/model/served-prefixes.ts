import type { GeneratorConfig } from './config.ts';

/** The two prefixes a current ARM API version is served under, in the order a package is built and cloned. */
export type ServedPrefix = 'ga' | 'plain';

const order: readonly ServedPrefix[] = ['ga', 'plain'];

/**
 * The prefixes the operator serves one ARM type at one API version under: a `published` entry naming the
 * type, else one for its whole group, else GA alone. Most groups agree at a date; API Management, Redis
 * Enterprise and Cognitive Services do not (a kind added at a date is served only as plain `v`).
 */
export function servedPrefixes(
  config: Pick<GeneratorConfig, 'published'>,
  group: string,
  apiVersion: string,
  armType: string,
): readonly ServedPrefix[] {
  const at = config.published.filter((p) => p.group === group && p.apiVersions.includes(apiVersion));
  const entry = at.find((p) => p.types?.includes(armType)) ?? at.find((p) => p.types === undefined);
  return entry?.prefixes ?? ['ga'];
}

/** The prefixes of several types in one list, GA first: those a package of them is built and cloned under. */
export function unionOfPrefixes(lists: readonly (readonly ServedPrefix[])[]): ServedPrefix[] {
  return order.filter((p) => lists.some((l) => l.includes(p)));
}
