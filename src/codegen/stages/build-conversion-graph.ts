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
  // As the operator's generator links them (ASO v2.20.0: v1api20220120previewstorage converts to
  // v1api20210601storage, v1api20230601previewstorage to v1api20221201storage): a preview joins the stable
  // version before it, since what only a preview has need not reach the next stable version; a preview
  // older than every stable version joins the first one.
  for (const preview of storageVersions.filter((v) => parseVersion(v)?.preview)) {
    if (preview === hub) continue;
    const before = stable.filter((v) => compareIgnoringPreview(v, preview) < 0).at(-1);
    next.set(preview, before ?? stable.find((v) => compareIgnoringPreview(v, preview) > 0) ?? hub);
  }
  if (stable.length === 0) {
    storageVersions.forEach((v, i) => {
      const up = storageVersions[i + 1];
      if (up) next.set(v, up);
    });
  }
  checkDates(group, kind, next);
  return { group, kind, apiVersions, storageVersions, hub, next };
}

/**
 * Fails unless ARM API dates never decrease along the chain toward the hub. The version order ranks the
 * prefix before the date (`v1alpha1api20230101` sorts below `v1api20210601`), so compatibility versions
 * dated after a GA version would chain newer data into an older storage version, and each step's
 * config renames and hooks (keyed by the date that introduced them) would apply backwards. A preview
 * newer than every stable version joins the chain at the hub, by design, and is not checked.
 */
function checkDates(group: string, kind: string, next: ReadonlyMap<string, string>): void {
  for (const [from, to] of [...next.entries()].sort()) {
    // A preview newer than every stable version joins at the hub by design; only stable links are checked.
    if (parseVersion(from)?.preview) continue;
    const a = parseVersion(from)?.date ?? '';
    const b = parseVersion(to)?.date ?? '';
    if (a.length === 8 && b.length === 8 && a > b) {
      throw new Error(
        `${group}/${kind}: the storage chain toward the hub goes back in time: ${from} (ARM ${armOf(a)}) converts up to ${to} (ARM ${armOf(b)}); a version with a ${prefixOf(from)} prefix must not be newer than the GA versions after it (drop it from the compatibility config or add a GA version at or after ${armOf(a)})`,
      );
    }
  }
}

function armOf(date: string): string {
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
}

function prefixOf(version: string): string {
  return `v${parseVersion(version)?.prefix ?? ''}`;
}
