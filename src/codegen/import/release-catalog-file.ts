import type { ReleaseOperator } from '../../lib/upgrade/release-types.ts';
import type { PropertyTree, ReleaseTrees, ReleaseVersion } from './release-trees.ts';

/**
 * The release catalog as `schemas/releases/catalog.json` keeps it: every release's kinds and versions, each
 * version pointing at its property tree in one shared list, since most trees repeat from release to release
 * and from an API version to its storage variant. One tree per line, so that a new release's diff shows
 * what it changes.
 */
interface CatalogFile {
  readonly releases: Record<
    string,
    Record<string, Record<string, [served: boolean, storage: boolean, tree: number]>>
  >;
  /** Per release, what its operator does by itself (release-operator.ts). */
  readonly operators?: Record<string, ReleaseOperator>;
  readonly trees: PropertyTree[];
}

/** The release catalog `npm run releases:import` writes, relative to the schemas directory. */
export const releaseCatalogFile = 'releases/catalog.json';

/** Orders ASO releases by version number (`v2.9.0` before `v2.18.0`), which a string sort gets wrong. */
export function compareReleases(a: string, b: string): number {
  const parts = (release: string) =>
    release
      .replace(/^v/, '')
      .split(/[.-]/)
      .map((p) => Number(p));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The catalog file's text for `releases` and their `operators`, deterministic: releases by version, kinds
 * and versions by name.
 */
export function releaseCatalogText(
  releases: Readonly<Record<string, ReleaseTrees>>,
  operators: Readonly<Record<string, ReleaseOperator>> = {},
): string {
  const index = new Map<string, number>();
  const trees: string[] = [];
  const file: CatalogFile['releases'] = {};
  for (const release of Object.keys(releases).sort(compareReleases)) {
    const kinds = releases[release] as ReleaseTrees;
    const out: CatalogFile['releases'][string] = {};
    for (const kind of Object.keys(kinds).sort(byName)) {
      const versions = kinds[kind] as Record<string, ReleaseVersion>;
      const entry: CatalogFile['releases'][string][string] = {};
      for (const version of Object.keys(versions).sort(byName)) {
        const { served, storage, tree } = versions[version] as ReleaseVersion;
        const text = JSON.stringify(tree);
        let at = index.get(text);
        if (at === undefined) {
          at = trees.length;
          index.set(text, at);
          trees.push(text);
        }
        entry[version] = [served, storage, at];
      }
      out[kind] = entry;
    }
    file[release] = out;
  }
  const releaseLines = Object.entries(file).map(
    ([release, kinds]) =>
      `    ${JSON.stringify(release)}: {\n${Object.entries(kinds)
        .map(([kind, versions]) => `      ${JSON.stringify(kind)}: ${JSON.stringify(versions)}`)
        .join(',\n')}\n    }`,
  );
  const operatorLines = Object.keys(operators)
    .sort(compareReleases)
    .map((release) => `    ${JSON.stringify(release)}: ${JSON.stringify(operators[release])}`);
  return `{\n  "releases": {\n${releaseLines.join(',\n')}\n  },\n  "operators": {\n${operatorLines.join(',\n')}\n  },\n  "trees": [\n${trees.map((t) => `    ${t}`).join(',\n')}\n  ]\n}\n`;
}

/** The releases of a catalog file's text, as {@link releaseCatalogText} wrote them. */
export function releaseTreesOfCatalog(text: string): Record<string, ReleaseTrees> {
  const file = JSON.parse(text) as CatalogFile;
  const out: Record<string, ReleaseTrees> = {};
  for (const [release, kinds] of Object.entries(file.releases)) {
    const trees: ReleaseTrees = {};
    for (const [kind, versions] of Object.entries(kinds)) {
      const entry: Record<string, ReleaseVersion> = {};
      for (const [version, [served, storage, at]] of Object.entries(versions)) {
        const tree = file.trees[at];
        if (tree === undefined)
          throw new Error(`release ${release} ${kind} ${version} names tree ${at}, which is missing`);
        entry[version] = { served, storage, tree };
      }
      trees[kind] = entry;
    }
    out[release] = trees;
  }
  return out;
}

/** The operators of a catalog file's text: per release, what it does by itself (none in an older file). */
export function releaseOperatorsOfCatalog(text: string): Record<string, ReleaseOperator> {
  return (JSON.parse(text) as CatalogFile).operators ?? {};
}
