import { LineCounter, parseAllDocuments } from 'yaml';
import type { KubeClient } from '../kube/client.ts';
import { ManifestError } from '../manifests/errors.ts';
import { readManifestTexts } from '../manifests/read.ts';
import { type AsoKind, discoverAsoKinds, isAsoGroup, kindMatches } from '../status/kinds.ts';
import { NoAsoKinds, UnknownRuleKind } from './errors.ts';

/**
 * A kind that gets health rules. Argo CD keys its rules by group and kind alone; Flux takes an apiVersion
 * but matches by group and kind too, so the version is informative.
 */
export interface RuleKind {
  group: string;
  version: string;
  kind: string;
}

/** Each group and kind once, sorted by group then kind, so that the output is the same on every run. */
export function sortedKinds(kinds: readonly RuleKind[]): RuleKind[] {
  const unique = new Map<string, RuleKind>();
  for (const kind of kinds) {
    const key = `${kind.group}/${kind.kind}`;
    if (!unique.has(key)) unique.set(key, kind);
  }
  return [...unique.values()].sort((a, b) => a.group.localeCompare(b.group) || a.kind.localeCompare(b.kind));
}

/**
 * The kinds `--kind` patterns name, as `status --kind` matches them (kind, plural, singular, short name,
 * optionally `.group`, case-insensitive); all of them without patterns. A pattern that names nothing is an
 * error, not a smaller rule set.
 */
export function selectRuleKinds(
  all: readonly AsoKind[],
  patterns: readonly string[],
  where: string,
): RuleKind[] {
  if (all.length === 0) throw new NoAsoKinds(where);
  const unmatched = patterns.filter((pattern) => !all.some((kind) => kindMatches(kind, pattern)));
  if (unmatched.length > 0) throw new UnknownRuleKind(unmatched, where, all.length);
  const selected =
    patterns.length === 0
      ? all
      : all.filter((kind) => patterns.some((pattern) => kindMatches(kind, pattern)));
  return sortedKinds(selected.map(({ group, version, kind }) => ({ group, version, kind })));
}

/** The ASO kinds the cluster serves (discovery, as `status` finds them), at the version kubectl uses. */
export async function installedKinds(
  client: KubeClient,
  patterns: readonly string[] = [],
): Promise<RuleKind[]> {
  return selectRuleKinds(await discoverAsoKinds(client), patterns, `the cluster at ${client.server}`);
}

interface CrdShape {
  kind?: unknown;
  spec?: {
    group?: unknown;
    names?: { kind?: unknown; plural?: unknown; singular?: unknown; shortNames?: unknown };
    scope?: unknown;
    versions?: Array<{ name?: unknown; served?: unknown }>;
  };
}

/**
 * The version a rule names for a CRD read from a file: the last served version that is not a storage
 * variant (the CRD generator lists versions in order, so this is the newest API version), else the last.
 */
function versionOf(crd: CrdShape): string {
  const names = (crd.spec?.versions ?? [])
    .filter((version) => version.served !== false && typeof version.name === 'string')
    .map((version) => version.name as string);
  return names.filter((name) => !name.endsWith('storage')).at(-1) ?? names.at(-1) ?? '';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A CRD's kind with the names `--kind` matches, as discovery would describe it. */
function asoKindOf(crd: CrdShape, group: string, kind: string): AsoKind {
  const names = crd.spec?.names;
  const shortNames = Array.isArray(names?.shortNames)
    ? names.shortNames.filter((name) => typeof name === 'string')
    : [];
  return {
    group,
    version: versionOf(crd),
    kind,
    plural: text(names?.plural),
    singular: text(names?.singular),
    shortNames,
    namespaced: crd.spec?.scope !== 'Cluster',
    verbs: [],
  };
}

/**
 * Every ASO kind defined by the CRD files in `dir` (a release's CRDs, e.g. the operator's release asset
 * unpacked; a folder's subfolders are not read, as with kubectl -f): rules for a whole release, with no cluster. Other objects in the files are passed over;
 * malformed YAML is invalid input naming the file and line.
 */
export function releaseKinds(dir: string, patterns: readonly string[] = []): RuleKind[] {
  const kinds: AsoKind[] = [];
  for (const { file, text } of readManifestTexts({ files: [dir], recursive: false })) {
    const lines = new LineCounter();
    for (const document of parseAllDocuments(text, { prettyErrors: false, lineCounter: lines })) {
      const problem = document.errors[0];
      if (problem) throw new ManifestError(file, problem.message, lines.linePos(problem.pos[0]).line);
      const crd = document.toJS({ maxAliasCount: 100 }) as CrdShape | null;
      const group = crd?.spec?.group;
      const kind = crd?.spec?.names?.kind;
      if (crd?.kind !== 'CustomResourceDefinition' || typeof group !== 'string' || typeof kind !== 'string')
        continue;
      if (isAsoGroup(group)) kinds.push(asoKindOf(crd, group, kind));
    }
  }
  return selectRuleKinds(kinds, patterns, dir);
}
