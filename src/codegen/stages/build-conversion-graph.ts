import type { KindGraph } from '../conversions/graph.ts';
import { compareIgnoringPreview, compareVersions, parseVersion, storageName } from '../model/versions.ts';
import { stage } from '../stage.ts';

/** Orders each kind's versions, picks the hub, and links every storage variant to the next one up. */
export const buildConversionGraph = stage({
  id: 'buildConversionGraph',
  description: 'Chain storage versions to the hub (newest non-preview storage version)',
  needs: ['addStorageVariants'],
  run: (state) => {
    const kinds = new Map<string, { group: string; kind: string; versions: string[] }>();
    for (const pkg of state.packages.filter((p) => !p.storage)) {
      for (const resource of pkg.resources) {
        const key = `${pkg.group}/${resource.kind}`;
        const entry = kinds.get(key) ?? { group: pkg.group, kind: resource.kind, versions: [] };
        entry.versions.push(pkg.version);
        kinds.set(key, entry);
      }
    }
    state.graph = {
      kinds: [...kinds.keys()].sort().map((key) => {
        const entry = kinds.get(key)!;
        return graphOf(entry.group, entry.kind, entry.versions);
      }),
    };
  },
});

/** The graph of one kind from its API versions. */
export function graphOf(group: string, kind: string, versions: readonly string[]): KindGraph {
  const apiVersions = [...versions].sort(compareVersions);
  const storageVersions = apiVersions.map(storageName);
  const stable = storageVersions.filter((v) => !parseVersion(v)?.preview);
  const hub = stable.at(-1) ?? storageVersions.at(-1);
  if (!hub) throw new Error(`${group}/${kind} has no versions`);
  const next = new Map<string, string>();
  stable.forEach((v, i) => {
    const up = stable[i + 1];
    if (up) next.set(v, up);
  });
  for (const preview of storageVersions.filter((v) => parseVersion(v)?.preview)) {
    if (preview === hub) continue;
    const after = stable.find((v) => compareIgnoringPreview(v, preview) > 0) ?? hub;
    next.set(preview, after);
  }
  if (stable.length === 0) {
    storageVersions.forEach((v, i) => {
      const up = storageVersions[i + 1];
      if (up) next.set(v, up);
    });
  }
  return { group, kind, apiVersions, storageVersions, hub, next };
}
