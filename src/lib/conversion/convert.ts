import { registry } from '../../../generated/registry.ts';
import { isObject } from './checks.ts';
import { NotAnObject, UnknownGroup, UnknownKind, UnknownVersion } from './errors.ts';
import { keepingLeftovers } from './property-bag.ts';
import type { ConversionRegistry, KindEntry } from './registry-types.ts';
import type { KubeObject } from './resource.ts';

/**
 * The one entry point: converts any supported object to any supported version of its kind, through the
 * hub (seed 000): up the storage chain from the object's version, then down to the target. Throws a typed
 * {@link ConversionError} naming an unknown group, kind or version, or the JSON path of a wrong-typed value.
 * `target` is a version (`v1beta20210601`) or a full apiVersion (`dbforpostgresql.azure.com/v1beta20210601`).
 */
export function convert(object: unknown, target: string, table: ConversionRegistry = registry): KubeObject {
  if (!isObject(object)) throw new NotAnObject('expected a Kubernetes object');
  const { group, version, kind, entry } = locate(object, table);
  const targetVersion = targetVersionOf(group, target);
  if (!Object.hasOwn(entry.versions, targetVersion)) {
    throw new UnknownVersion(group, kind, targetVersion, Object.keys(entry.versions));
  }
  let current = object as KubeObject;
  let at = version;
  while (at !== entry.hub) {
    const step = entry.versions[at]?.up;
    if (!step) throw new UnknownVersion(group, kind, at, Object.keys(entry.versions));
    current = step.convert(current);
    at = step.to;
  }
  for (const v of pathDown(entry, targetVersion)) {
    const step = entry.versions[v]?.down;
    if (!step) throw new UnknownVersion(group, kind, v, Object.keys(entry.versions));
    current = step.convert(current);
  }
  return current;
}

/**
 * {@link convert}, but what the target version cannot hold stays visible in `$propertyBag`s of the result
 * where the operator would drop it (property-bag.ts, `keepingLeftovers`). For callers that name a loss
 * instead of making it, such as manifest conversion; never for objects written to a cluster.
 */
export function convertKeepingLeftovers(
  object: unknown,
  target: string,
  table: ConversionRegistry = registry,
): KubeObject {
  return keepingLeftovers(() => convert(object, target, table));
}

/** The versions a kind supports, or the typed error for an unknown group or kind. */
export function versionsOf(group: string, kind: string, table: ConversionRegistry = registry): string[] {
  return Object.keys(kindEntry(group, kind, table).versions);
}

/** The hub (storage) version of a kind. */
export function hubOf(group: string, kind: string, table: ConversionRegistry = registry): string {
  return kindEntry(group, kind, table).hub;
}

function locate(object: Record<string, unknown>, table: ConversionRegistry) {
  const apiVersion = object.apiVersion;
  const kind = object.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string')
    throw new NotAnObject('the object has no apiVersion or kind');
  const slash = apiVersion.indexOf('/');
  if (slash < 0) throw new UnknownGroup(apiVersion, Object.keys(table.groups));
  const group = apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const entry = kindEntry(group, kind, table);
  if (!Object.hasOwn(entry.versions, version))
    throw new UnknownVersion(group, kind, version, Object.keys(entry.versions));
  return { group, version, kind, entry };
}

function kindEntry(group: string, kind: string, table: ConversionRegistry): KindEntry {
  const kinds = Object.hasOwn(table.groups, group) ? table.groups[group] : undefined;
  if (!kinds) throw new UnknownGroup(group, Object.keys(table.groups));
  const entry = Object.hasOwn(kinds, kind) ? kinds[kind] : undefined;
  if (!entry) throw new UnknownKind(group, kind, Object.keys(kinds));
  return entry;
}

function targetVersionOf(group: string, target: string): string {
  const slash = target.indexOf('/');
  if (slash < 0) return target;
  const targetGroup = target.slice(0, slash);
  if (targetGroup !== group)
    throw new UnknownVersion(group, '(conversion target)', target, [`${group}/<version>`]);
  return target.slice(slash + 1);
}

/** The versions to step down into, from just below the hub to `target`. */
function pathDown(entry: KindEntry, target: string): string[] {
  const chain: string[] = [];
  let at = target;
  while (at !== entry.hub) {
    chain.push(at);
    const up = entry.versions[at]?.up;
    if (!up) break;
    at = up.to;
  }
  return chain.reverse();
}
