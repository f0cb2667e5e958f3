import { registry } from '../../../../generated/registry.ts';
import {
  type AsoVersionName,
  compareAsoVersions,
  parseAsoVersion,
  versionPrefixes,
} from '../../aso-version-name.ts';
import { convertKeepingLeftovers } from '../../conversion/convert.ts';
import { bagKey, keepingLeftovers } from '../../conversion/property-bag.ts';
import type { ConversionRegistry } from '../../conversion/registry-types.ts';
import type { KubeObject, ResourceConverter } from '../../conversion/resource.ts';
import { installedGeneratedCrds } from '../../crds/generated-crds.ts';
import { describeTarget, type TargetSpec } from '../target.ts';
import { ConversionLoss, NoManifestTarget } from './errors.ts';
import { type FieldPath, fieldsNotInSchema, formatPath, type StructuralSchema } from './schema-check.ts';
import { manifestTarget } from './target.ts';

/** A CRD version as the manifest converter needs it: its name, whether it is served, and its schema. */
export interface CrdSchemaVersion {
  name: string;
  served: boolean;
  schema?: { openAPIV3Schema?: StructuralSchema };
}

/** What the cluster says about one kind: its CRD's versions, or why they are not known. */
export type CrdLookup = { versions: CrdSchemaVersion[] } | { unknown: string };

/**
 * Where the schemas of kinds the catalog lacks come from (the cluster's CRDs); `lookup` is called only for
 * such kinds, so a run over catalogued kinds never needs a cluster.
 */
export interface CrdSchemas {
  lookup(group: string, kind: string): Promise<CrdLookup>;
}

/** How one object was handled. */
export type ManifestHow = 'converted' | 'renamed' | 'unchanged';

/** One ASO object of the input and what became of it. */
export interface ObjectResult {
  /** `file#document`, `file#document.items[i]` for an item of a `kind: List`. */
  source: string;
  kind: string;
  name: string;
  from: string;
  to: string;
  how: ManifestHow;
  /**
   * Whether what the catalog could not check (a rename, or properties the catalog does not model) was
   * checked against the target version's schema in the cluster's CRD: true when it was, false when it could
   * not be (see `note`). Absent when there was nothing to check.
   */
  verified?: boolean;
  /** Why an object is unchanged or not verified. */
  note?: string;
  /** Set when the kind has no version `--to` could name: the object is left as it is, said in one line. */
  noTarget?: true;
  /**
   * Properties of a catalogued kind that the catalog's schema of the object's version does not model: they
   * are carried over at the same path, as the operator's versions of a kind mostly keep them.
   */
  carried: string[];
  /** Properties dropped under `--allow-loss`. */
  dropped: string[];
}

/** What the run converts to and how it treats loss. */
export interface ManifestConversionOptions {
  target: TargetSpec;
  allowLoss: boolean;
  /** The conversion table; the generated one unless a test passes another. */
  table?: ConversionRegistry;
}

/** Where an object sits in the input: `source` for reports, `label` (file:line, kind/name) for errors. */
export interface ObjectPlace {
  source: string;
  label: string;
}

type Converted = { value: Record<string, unknown>; result: ObjectResult };

/**
 * Converts one ASO object of a manifest to the API version `--to` names for its kind. A kind the catalog
 * knows (at the object's version) goes through the generated conversions; any other kind can only be
 * renamed to another prefix at the same ARM date ({@link renameObject}). A loss is refused
 * ({@link ConversionLoss}) unless `allowLoss`, which drops the values as the API server would prune them.
 */
export async function convertManifestObject(
  object: Record<string, unknown>,
  where: ObjectPlace,
  options: ManifestConversionOptions,
  schemas: CrdSchemas,
): Promise<Converted> {
  const apiVersion = String(object.apiVersion);
  const kind = String(object.kind);
  const slash = apiVersion.indexOf('/');
  const group = apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const base = { source: where.source, kind, name: nameOf(object), from: version, to: version };
  const from = parseAsoVersion(version);
  const unchanged = (note: string): Converted => ({
    value: object,
    result: { ...base, how: 'unchanged', note, carried: [], dropped: [] },
  });
  if (!from) return unchanged(`${version} is not an ASO version name`);
  if (from.storage) return unchanged(`${version} is a storage version; manifests are left at it`);

  if (pastPrefix(options.target, from)) {
    return unchanged(`${version} is already past the prefix ${describeTarget(options.target)}`);
  }

  const table = options.table ?? registry;
  const entry = table.groups[group]?.[kind];
  const catalogued = entry !== undefined && Object.hasOwn(entry.versions, version);
  // A kind the catalog lacks can only be renamed within its ARM date, so under its own prefix it is where
  // it belongs; no need to ask the cluster.
  if (!catalogued && options.target.kind === 'prefix' && options.target.prefix === from.prefix) {
    return unchanged(`already at the prefix ${from.prefix}`);
  }
  const lookup = await schemas.lookup(group, kind);
  const versions = 'versions' in lookup ? lookup.versions.filter((v) => v.served) : undefined;
  const target = catalogued
    ? manifestTarget(
        options.target,
        from,
        catalogTargets(Object.keys(entry.versions), options.target, versions),
        false,
      )
    : manifestTarget(
        options.target,
        from,
        versions?.map((v) => v.name),
        true,
      );
  if (target.version === undefined) {
    if (target.leaveAsIs) {
      const left = unchanged(target.reason);
      return { ...left, result: { ...left.result, noTarget: true } };
    }
    throw new NoManifestTarget(where.label, target.reason);
  }
  const to = parseAsoVersion(target.version);
  if (!to || compareAsoVersions(from, to) >= 0) return unchanged(`already at ${target.version} or newer`);
  const moved = { ...base, to: target.version };

  if (catalogued) {
    // Leftovers kept: what the target cannot hold is named as a loss below, never dropped unseen.
    const value = convertKeepingLeftovers(object, target.version, table) as Record<string, unknown>;
    const { carried, lost } = settleBags(object, value, entry.versions[version]?.up?.convert);
    const checked = await checkAgainstCrd(value, carried, target.version, async () => lookup, {
      group,
      kind,
    });
    return finish(value, where, options, { ...moved, how: 'converted' }, [...lost, ...checked.missing], {
      carried: carried.map(formatPath),
      ...checked.verdict,
    });
  }

  const value: Record<string, unknown> = { ...object, apiVersion: `${group}/${target.version}` };
  const schema = versions?.find((v) => v.name === target.version)?.schema?.openAPIV3Schema;
  if (!schema) {
    const note =
      lookup && 'unknown' in lookup ? lookup.unknown : `the CRD has no schema for ${target.version}`;
    return finish(value, where, options, { ...moved, how: 'renamed' }, [], {
      carried: [],
      verified: false,
      note: `not checked: ${note}`,
    });
  }
  return finish(value, where, options, { ...moved, how: 'renamed' }, fieldsNotInSchema(value, schema), {
    carried: [],
    verified: true,
  });
}

/**
 * The versions a catalogued kind may move to: the catalog's, narrowed by a prefix or `latest` to those the
 * cluster's CRD serves when a cluster answered, so that the manifests name a version the operator there
 * serves (the catalog may know versions an operator release does not). An exact `--to` is taken as asked.
 */
function catalogTargets(known: string[], spec: TargetSpec, served: CrdSchemaVersion[] | undefined): string[] {
  if (served === undefined || spec.kind === 'exact') return known;
  const names = new Set(served.map((version) => version.name));
  return known.filter((name) => names.has(name));
}

/** Refuses `lost` unless `--allow-loss`, which drops it; builds the result. */
function finish(
  value: Record<string, unknown>,
  where: ObjectPlace,
  options: ManifestConversionOptions,
  result: Omit<ObjectResult, 'carried' | 'dropped' | 'verified' | 'note'>,
  lost: FieldPath[],
  extra: Pick<ObjectResult, 'carried' | 'verified' | 'note'>,
): Converted {
  const dropped = lost.map(formatPath);
  if (lost.length > 0 && !options.allowLoss) throw new ConversionLoss(where.label, result.to, dropped);
  // Deepest first and array items from the end, so that no deletion moves a path still to be deleted.
  for (const path of [...lost].sort(comparePathsForDeletion)) deletePath(value, path);
  const carried = extra.carried.filter((path) => !dropped.includes(path));
  return { value, result: { ...result, ...extra, carried, dropped } };
}

/** Deletion order: deeper paths first, and later array items before earlier ones. */
function comparePathsForDeletion(a: FieldPath, b: FieldPath): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(x) < String(y) ? -1 : 1;
  }
  return b.length - a.length;
}

/**
 * Empties the `$propertyBag`s the generated conversions leave in `value`. An entry holding a property the
 * catalog's schema of the source version does not model (found by stepping the source up to its own
 * storage variant, which keeps every property of its version: whatever that step bags is unmodelled) is
 * put back at its path with its original value; the operator's other versions mostly keep such properties
 * where they are, and the cluster's CRD checks it when there is one. Every other entry is a value the
 * target cannot hold: a loss, named by its path.
 */
function settleBags(
  source: Record<string, unknown>,
  value: Record<string, unknown>,
  stepUp: ResourceConverter | undefined,
): { carried: FieldPath[]; lost: FieldPath[] } {
  const unmodelled = new Map<string, { name: string; value: unknown }>();
  if (stepUp) {
    const stepped = keepingLeftovers(() => stepUp(structuredClone(source) as KubeObject));
    for (const bag of bagsIn(stepped, [])) {
      const at = valueAt(source, bag.path);
      if (!isRecord(at)) continue;
      for (const key of bag.keys) {
        const name = Object.keys(at).find((candidate) => bagKey(candidate) === key);
        if (name !== undefined) unmodelled.set(pathKey([...bag.path, key]), { name, value: at[name] });
      }
    }
  }
  const carried: FieldPath[] = [];
  const lost: FieldPath[] = [];
  for (const bag of bagsIn(value, [])) {
    const holder = valueAt(value, bag.path);
    if (!isRecord(holder)) continue;
    const entries = holder.$propertyBag as Record<string, unknown>;
    for (const key of bag.keys) {
      const original = unmodelled.get(pathKey([...bag.path, key]));
      if (original && !Object.hasOwn(holder, original.name)) {
        holder[original.name] = structuredClone(original.value);
        carried.push([...bag.path, original.name]);
      } else {
        lost.push([...bag.path, lowerFirst(key)]);
      }
      delete entries[key];
    }
    delete holder.$propertyBag;
  }
  return { carried, lost };
}

/**
 * Checks the carried-over properties against the target version's schema in the cluster's CRD: a carried
 * property the schema has no place for is a loss; without a schema they are unverified.
 */
async function checkAgainstCrd(
  value: Record<string, unknown>,
  carried: FieldPath[],
  target: string,
  lookup: () => Promise<CrdLookup>,
  resource: { group: string; kind: string },
): Promise<{ missing: FieldPath[]; verdict: Pick<ObjectResult, 'verified' | 'note'> }> {
  if (carried.length === 0) return { missing: [], verdict: {} };
  const found = await lookup();
  const schema =
    'versions' in found ? found.versions.find((v) => v.name === target)?.schema?.openAPIV3Schema : undefined;
  if (!schema) {
    const why = 'unknown' in found ? found.unknown : `the CRD has no schema for ${target}`;
    const unknown = unknownToGeneratedCrd(value, carried, target, resource);
    const hint = unknown.length === 0 ? '' : `; ${unknownNote(unknown, target)}`;
    return { missing: [], verdict: { verified: false, note: `carried over unchecked: ${why}${hint}` } };
  }
  return { missing: carriedNotIn(value, carried, schema), verdict: { verified: true } };
}

/**
 * A manifest already at a later prefix than `--to` names (`v20240501` under `--to v1api`) has nothing to
 * move to: ASO never goes back a prefix, and GitOps trees mix manifests of every era.
 */
function pastPrefix(spec: TargetSpec, from: AsoVersionName): boolean {
  return (
    spec.kind === 'prefix' && versionPrefixes.indexOf(from.prefix) > versionPrefixes.indexOf(spec.prefix)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathKey(path: FieldPath): string {
  return JSON.stringify(path).slice(0, -1);
}

function valueAt(root: unknown, path: FieldPath): unknown {
  let at: unknown = root;
  for (const step of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

function nameOf(object: Record<string, unknown>): string {
  const metadata = object.metadata;
  if (typeof metadata !== 'object' || metadata === null) return '?';
  const name = (metadata as Record<string, unknown>).name;
  return typeof name === 'string' && name !== '' ? name : '?';
}

/** The inverse of the operator's bag key: `DataEncryption` was the property `dataEncryption`. */
function lowerFirst(key: string): string {
  return key.charAt(0).toLowerCase() + key.slice(1);
}

/** Every non-empty `$propertyBag` in a converted object: where it is and the keys it holds. */
function bagsIn(value: unknown, path: FieldPath): Array<{ path: FieldPath; keys: string[] }> {
  if (Array.isArray(value)) return value.flatMap((item, i) => bagsIn(item, [...path, i]));
  if (typeof value !== 'object' || value === null) return [];
  const found: Array<{ path: FieldPath; keys: string[] }> = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === '$propertyBag' && typeof child === 'object' && child !== null) {
      const keys = Object.keys(child);
      if (keys.length > 0) found.push({ path, keys });
    } else {
      found.push(...bagsIn(child, [...path, key]));
    }
  }
  return found;
}

function deletePath(root: unknown, path: FieldPath): void {
  let at: unknown = root;
  for (const step of path.slice(0, -1)) {
    if (typeof at !== 'object' || at === null) return;
    at = (at as Record<string | number, unknown>)[step];
  }
  const last = path.at(-1);
  if (last === undefined || typeof at !== 'object' || at === null) return;
  if (Array.isArray(at) && typeof last === 'number') at.splice(last, 1);
  else delete (at as Record<string | number, unknown>)[last];
}

/**
 * The carried paths the generated CRD of the target version (ASO v2.20.0's) has no place for: without a
 * cluster they are still carried (a newer operator release may define them), but a user should learn that
 * the release kubectl-aso knows does not, which is how a misspelt key (`ARMID` for `armId`) shows up, one
 * the API server would drop on apply.
 */
function unknownToGeneratedCrd(
  value: Record<string, unknown>,
  carried: FieldPath[],
  target: string,
  resource: { group: string; kind: string },
): FieldPath[] {
  const schema = installedGeneratedCrds()
    ?.find(resource.group, resource.kind)
    ?.document()
    .spec.versions.find((version) => version.name === target)?.schema?.openAPIV3Schema;
  return schema ? carriedNotIn(value, carried, schema) : [];
}

/** The paths at or below a carried one that `schema` has no place for. */
function carriedNotIn(
  value: Record<string, unknown>,
  carried: FieldPath[],
  schema: StructuralSchema,
): FieldPath[] {
  const carriedKeys = carried.map(pathKey);
  return fieldsNotInSchema(value, schema).filter((path) =>
    carriedKeys.some((key) => pathKey(path).startsWith(key)),
  );
}

function unknownNote(unknown: FieldPath[], target: string): string {
  const paths = unknown.map(formatPath).join(', ');
  return `ASO v2.20.0's ${target} has no ${paths}: a newer release's property, or a misspelling the API server drops`;
}
