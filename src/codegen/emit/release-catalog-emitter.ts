import type { ReleaseCatalog, ReleaseKind, ReleaseOperator } from '../../lib/upgrade/release-types.ts';
import { compareReleases } from '../import/release-catalog-file.ts';
import type { ReleaseTrees } from '../import/release-trees.ts';
import { releaseHop, releaseKindOf } from '../model/release-changes.ts';
import { tsHeader } from './code.ts';

/**
 * The release catalog an upgrade check reads: each release's kinds with their served and storage versions,
 * and the hop between each pair of consecutive releases (release-changes.ts). The property trees stay in
 * `schemas/releases/`; what ships is only what the check compares, computed here once. Every release must
 * have its operator's behaviour, since a missing one would read as "does nothing by itself".
 */
export function releaseCatalogOf(
  releases: Readonly<Record<string, ReleaseTrees>>,
  operators: Readonly<Record<string, ReleaseOperator>>,
): ReleaseCatalog {
  const names = Object.keys(releases).sort(compareReleases);
  const missing = names.filter((name) => operators[name] === undefined);
  if (missing.length > 0)
    throw new Error(
      `the release catalog has no operator behaviour for ${missing.join(', ')}: run npm run releases:import`,
    );
  const kinds: Record<string, Record<string, ReleaseKind>> = {};
  for (const name of names) {
    const trees = releases[name] as ReleaseTrees;
    kinds[name] = Object.fromEntries(
      Object.keys(trees)
        .sort()
        .map((kind) => [kind, releaseKindOf(trees[kind] as ReleaseTrees[string])]),
    );
  }
  const hops = names.slice(1).map((to, i) => {
    const from = names[i] as string;
    return releaseHop(from, releases[from] as ReleaseTrees, to, releases[to] as ReleaseTrees);
  });
  return {
    releases: names,
    operators: Object.fromEntries(names.map((name) => [name, operators[name] as ReleaseOperator])),
    kinds,
    hops,
  };
}

/** `releases.ts`: the catalog as a typed constant, one kind or hop entry per line. */
export function releaseCatalogSource(catalog: ReleaseCatalog): string {
  const kindLines = Object.entries(catalog.kinds).map(
    ([release, kinds]) =>
      `    ${JSON.stringify(release)}: {\n${Object.entries(kinds)
        .map(([kind, entry]) => `      ${JSON.stringify(kind)}: ${JSON.stringify(entry)},`)
        .join('\n')}\n    },`,
  );
  const hopLines = catalog.hops.map(
    (hop) =>
      `    {\n      "from": ${JSON.stringify(hop.from)},\n      "to": ${JSON.stringify(hop.to)},\n` +
      `      "addedKinds": ${JSON.stringify(hop.addedKinds)},\n      "removedKinds": ${JSON.stringify(hop.removedKinds)},\n` +
      `      "kinds": {\n${Object.entries(hop.kinds)
        .map(([kind, changes]) => `        ${JSON.stringify(kind)}: ${JSON.stringify(changes)},`)
        .join('\n')}\n      },\n    },`,
  );
  return (
    `${tsHeader()}/** The ASO releases kubectl-aso knows (schemas/releases/catalog.json): their kinds, and what each hop changes. */\n` +
    `import type { ReleaseCatalog } from '../src/lib/upgrade/release-types.ts';\n\n` +
    `export const releaseCatalog: ReleaseCatalog = {\n  "releases": ${JSON.stringify(catalog.releases)},\n` +
    `  "operators": ${JSON.stringify(catalog.operators)},\n` +
    `  "kinds": {\n${kindLines.join('\n')}\n  },\n  "hops": [\n${hopLines.join('\n')}\n  ],\n};\n`
  );
}
