import { AsoError } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { discoverResources, type ServedResource } from '../kube/discovery.ts';

/** An ASO resource type: any served, listable type of an API group ending in `.azure.com`. */
export type AsoKind = ServedResource;

/** True for the API groups ASO serves its resources under (`resources.azure.com`, `sql.azure.com`, ...). */
export function isAsoGroup(group: string): boolean {
  return group.endsWith('.azure.com');
}

/**
 * Every ASO resource type the cluster serves, from discovery rather than from a list of kinds this project
 * knows: a real ASO install has hundreds, and any of them may be new.
 */
export async function discoverAsoKinds(client: KubeClient): Promise<AsoKind[]> {
  const resources = await discoverResources(client, isAsoGroup);
  return resources
    .filter((resource) => resource.verbs.length === 0 || resource.verbs.includes('list'))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.group.localeCompare(b.group));
}

/** A `--kind` that names no ASO resource type the cluster serves. */
export class UnknownKind extends AsoError {
  constructor(names: string[], known: number) {
    super(
      'notFound',
      `no ASO resource type matches --kind ${names.join(', ')} (the cluster serves ${known} under *.azure.com)`,
      'name a kind, plural, short name or kind.group, e.g. ResourceGroup, resourcegroups, resourcegroup.resources.azure.com',
    );
  }
}

function names(kind: AsoKind): string[] {
  return [kind.kind, kind.plural, kind.singular, ...kind.shortNames]
    .filter((name) => name.length > 0)
    .map((name) => name.toLowerCase());
}

/** Whether `--kind pattern` names this type: its kind, plural, singular or a short name, optionally `.group`. */
export function kindMatches(kind: AsoKind, pattern: string): boolean {
  const wanted = pattern.toLowerCase();
  const group = kind.group.toLowerCase();
  return names(kind).some((name) => name === wanted || `${name}.${group}` === wanted);
}

/**
 * The types the `--kind` patterns name (all of them when there are none). Every pattern must match at least
 * one type: a typo is an error, not an empty result.
 */
export function selectKinds(all: AsoKind[], patterns: string[]): AsoKind[] {
  if (patterns.length === 0) return all;
  const unmatched = patterns.filter((pattern) => !all.some((kind) => kindMatches(kind, pattern)));
  if (unmatched.length > 0) throw new UnknownKind(unmatched, all.length);
  return all.filter((kind) => patterns.some((pattern) => kindMatches(kind, pattern)));
}
