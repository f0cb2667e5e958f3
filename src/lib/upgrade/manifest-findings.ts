import { convertKeepingLeftovers } from '../conversion/convert.ts';
import { ConversionError } from '../conversion/errors.ts';
import type { LocatedObject } from '../manifests/read.ts';
import { locationsOf, pathText } from './property-paths.ts';
import type { ReleaseCatalog, ReleaseHop } from './release-types.ts';

/** What a manifest uses that a hop takes away. */
export type ManifestProblem = 'removed-kind' | 'removed-version' | 'removed-property' | 'retyped-property';

/**
 * One use, in a manifest, of something an upgrade removes or retypes: after the hop the manifest no longer
 * applies (a removed version or property is refused by the API server's validation, a retyped value
 * fails it), so a GitOps sync fails on it. Each finding says where, what, and the fix.
 */
export interface ManifestFinding {
  /** The hop that takes it away: `v2.18.0 -> v2.20.0`. */
  readonly hop: string;
  readonly file: string;
  readonly line: number | undefined;
  /** `Kind/name`, with ` -n namespace` when the manifest names one. */
  readonly object: string;
  readonly apiVersion: string;
  readonly problem: ManifestProblem;
  /** The property's path in the object (`spec.rules[2].port`), for a property finding. */
  readonly path?: string;
  /** What changes, in words. */
  readonly detail: string;
  /** What to run or change so that the manifest applies after the hop. */
  readonly fix: string;
  /**
   * For a removed version: whether rewriting the object to the suggested version keeps every value
   * (`kept`), drops some (`lost`, named in the conversion's leftovers by `migrate -f`), or cannot be
   * told because kubectl-aso cannot convert the object (`unknown`).
   */
  readonly values?: 'kept' | 'lost' | 'unknown';
}

/**
 * Every finding for the manifests' objects over the hops, in input order. An object follows its version
 * hop by hop: once a hop removes its version, that finding stands for the rest (the rewrite it names moves
 * the object past every later removal too), so later hops add nothing for it.
 */
export function manifestFindings(
  objects: readonly LocatedObject[],
  hops: readonly ReleaseHop[],
  catalog: ReleaseCatalog,
): ManifestFinding[] {
  const findings: ManifestFinding[] = [];
  for (const located of objects) {
    const { object } = located;
    const slash = object.apiVersion.indexOf('/');
    const group = object.apiVersion.slice(0, slash);
    const version = object.apiVersion.slice(slash + 1);
    const kind = `${group}/${object.kind}`;
    const label = `${object.kind}/${object.metadata.name ?? '?'}${object.metadata.namespace ? ` -n ${object.metadata.namespace}` : ''}`;
    const base = { file: located.file, object: label, apiVersion: object.apiVersion };
    for (const hop of hops) {
      const hopName = `${hop.from} -> ${hop.to}`;
      if (hop.removedKinds.includes(kind)) {
        findings.push({
          ...base,
          hop: hopName,
          line: located.lineOf(['kind']),
          problem: 'removed-kind',
          detail: `${hop.to} no longer has ${kind}`,
          fix: 'remove the object: the operator no longer manages this kind',
        });
        break;
      }
      const changes = hop.kinds[kind];
      if (changes === undefined) continue;
      if (changes.removedVersions?.includes(version)) {
        const last = hops[hops.length - 1] as ReleaseHop;
        const target = rewriteTarget(catalog, last, kind);
        const values = target === undefined ? 'unknown' : valuesAfter(located, target);
        findings.push({
          ...base,
          hop: hopName,
          line: located.lineOf(['apiVersion']),
          problem: 'removed-version',
          detail: `${hop.to} no longer serves ${version}`,
          fix:
            target === undefined
              ? `${last.to} does not serve ${object.kind}: remove the object`
              : values === 'unknown'
                ? `rewrite it at ${group}/${target} by hand (kubectl-aso cannot convert ${version})`
                : `kubectl aso migrate -f ${located.file} --to ${target}`,
          values,
        });
        break;
      }
      for (const path of changes.removedProperties?.[version] ?? []) {
        for (const at of locationsOf(object, path)) {
          findings.push({
            ...base,
            hop: hopName,
            line: located.lineOf(at),
            problem: 'removed-property',
            path: pathText(at),
            detail: `${hop.to} no longer has ${path} at ${version}`,
            fix: `remove ${pathText(at)} from the manifest`,
          });
        }
      }
      for (const retyped of changes.retypedProperties?.[version] ?? []) {
        for (const at of locationsOf(object, retyped.path)) {
          findings.push({
            ...base,
            hop: hopName,
            line: located.lineOf(at),
            problem: 'retyped-property',
            path: pathText(at),
            detail: `${hop.to} types ${retyped.path} at ${version} as ${retyped.to}, not ${retyped.from}`,
            fix: `write ${pathText(at)} as ${a(retyped.to)}`,
          });
        }
      }
    }
  }
  return findings;
}

/**
 * The version a manifest at a removed version is rewritten to: the API version of the storage version the
 * target release installs for the kind (the one the operator itself stores and reads back), which every
 * release serves beside it.
 */
export function rewriteTarget(catalog: ReleaseCatalog, last: ReleaseHop, kind: string): string | undefined {
  const entry = catalog.kinds[last.to]?.[kind];
  if (entry === undefined) return undefined;
  const api = entry.storage.replace(/storage$/, '');
  return entry.served.includes(api) ? api : entry.storage;
}

/** Whether converting the object to `target` keeps every value (see {@link ManifestFinding.values}). */
function valuesAfter(located: LocatedObject, target: string): ManifestFinding['values'] {
  const { object } = located;
  try {
    const converted = convertKeepingLeftovers(
      {
        apiVersion: object.apiVersion,
        kind: object.kind,
        metadata: object.metadata,
        spec: object.spec ?? {},
      },
      target,
    );
    return holdsBag(converted.spec) ? 'lost' : 'kept';
  } catch (error) {
    if (error instanceof ConversionError) return 'unknown';
    throw error;
  }
}

function holdsBag(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsBag);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === '$propertyBag' || holdsBag(inner));
}

function a(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
