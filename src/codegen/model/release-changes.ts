import type {
  KindChanges,
  ReleaseHop,
  ReleaseKind,
  RetypedProperty,
} from '../../lib/upgrade/release-types.ts';
import { compareReleases } from '../import/release-catalog-file.ts';
import {
  type PropertyTree,
  type ReleaseTrees,
  type ReleaseVersion,
  typeOfLetter,
} from '../import/release-trees.ts';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A kind's served versions (in name order) and storage version in one release. */
export function releaseKindOf(versions: Readonly<Record<string, ReleaseVersion>>): ReleaseKind {
  const names = Object.keys(versions).sort(byName);
  const storage = names.find((name) => versions[name]?.storage) ?? '';
  return { served: names.filter((name) => versions[name]?.served), storage };
}

/** The change of each kind from release `from` to release `to`, the releases being consecutive in the catalog. */
export function releaseHop(
  fromName: string,
  from: ReleaseTrees,
  toName: string,
  to: ReleaseTrees,
): ReleaseHop {
  if (compareReleases(fromName, toName) >= 0)
    throw new Error(`a hop goes to a newer release: ${fromName} -> ${toName}`);
  const kinds: Record<string, KindChanges> = {};
  for (const kind of Object.keys(from).sort(byName)) {
    const older = from[kind];
    const newer = to[kind];
    if (older === undefined || newer === undefined) continue;
    const changes = kindChanges(older, newer);
    if (Object.keys(changes).length > 0) kinds[kind] = changes;
  }
  return {
    from: fromName,
    to: toName,
    addedKinds: Object.keys(to)
      .filter((k) => from[k] === undefined)
      .sort(byName),
    removedKinds: Object.keys(from)
      .filter((k) => to[k] === undefined)
      .sort(byName),
    kinds,
  };
}

function kindChanges(
  older: Readonly<Record<string, ReleaseVersion>>,
  newer: Readonly<Record<string, ReleaseVersion>>,
): KindChanges {
  const before = releaseKindOf(older);
  const after = releaseKindOf(newer);
  const removedVersions = before.served.filter((v) => !after.served.includes(v));
  const addedVersions = after.served.filter((v) => !before.served.includes(v));
  const removedProperties: Record<string, string[]> = {};
  const retypedProperties: Record<string, RetypedProperty[]> = {};
  for (const version of before.served.filter((v) => after.served.includes(v))) {
    const removed: string[] = [];
    const retyped: RetypedProperty[] = [];
    compareTrees(
      (older[version] as ReleaseVersion).tree,
      (newer[version] as ReleaseVersion).tree,
      '',
      removed,
      retyped,
    );
    if (removed.length > 0) removedProperties[version] = removed;
    if (retyped.length > 0) retypedProperties[version] = retyped;
  }
  return {
    ...(removedVersions.length > 0 ? { removedVersions } : {}),
    ...(addedVersions.length > 0 ? { addedVersions } : {}),
    ...(before.storage !== after.storage ? { storage: { from: before.storage, to: after.storage } } : {}),
    ...(Object.keys(removedProperties).length > 0 ? { removedProperties } : {}),
    ...(Object.keys(retypedProperties).length > 0 ? { retypedProperties } : {}),
  };
}

const letterOf = (tree: PropertyTree) => (typeof tree === 'string' ? tree : tree[0]);
const childrenOf = (tree: PropertyTree) => (typeof tree === 'string' ? {} : tree[1]);

/** `spec` + `sku` -> `spec.sku`; a list's items and a map's values are `[]` and `{}` with no dot. */
function childPath(path: string, name: string): string {
  if (path === '') return name;
  return name === '[]' || name === '{}' ? `${path}${name}` : `${path}.${name}`;
}

/** Collects what `newer` no longer has and what it types otherwise, the topmost path of each subtree only. */
function compareTrees(
  older: PropertyTree,
  newer: PropertyTree,
  path: string,
  removed: string[],
  retyped: RetypedProperty[],
): void {
  if (path !== '' && letterOf(older) !== letterOf(newer)) {
    retyped.push({ path, from: typeOfLetter(letterOf(older)), to: typeOfLetter(letterOf(newer)) });
    return;
  }
  const after = childrenOf(newer);
  for (const [name, child] of Object.entries(childrenOf(older))) {
    const next = after[name];
    if (next === undefined) removed.push(childPath(path, name));
    else compareTrees(child, next, childPath(path, name), removed, retyped);
  }
}
