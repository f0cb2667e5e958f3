import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { CrdNode } from './real-crds.ts';

/**
 * A property's type and, for an object, list or map, what it holds: the part of a CRD version's schema an
 * upgrade check compares between releases. Children are keyed by property name, `[]` for a list's items and
 * `{}` for a map's values. A leaf is its type letter alone, so that the catalog stays small.
 */
export type PropertyTree = string | readonly [type: string, children: Readonly<Record<string, PropertyTree>>];

/** One version of a kind's CRD in one release. */
export interface ReleaseVersion {
  readonly served: boolean;
  readonly storage: boolean;
  /** `spec` and `status` (either may be absent), as property trees. */
  readonly tree: PropertyTree;
}

/** A release's CRDs reduced to what the catalog keeps: `group/Kind` -> version -> {@link ReleaseVersion}. */
export type ReleaseTrees = Record<string, Record<string, ReleaseVersion>>;

/** A schema type as one letter; `j` for a free-form JSON value, which has no type. */
const typeLetters: Readonly<Record<string, string>> = {
  object: 'o',
  string: 's',
  integer: 'i',
  number: 'n',
  boolean: 'b',
  array: 'l',
};

/** The schema type a letter stands for, for messages. */
export function typeOfLetter(letter: string): string {
  return Object.entries(typeLetters).find(([, l]) => l === letter)?.[0] ?? 'any';
}

/** The property tree of a schema node. */
export function propertyTreeOf(node: CrdNode): PropertyTree {
  const letter = (node.type !== undefined ? typeLetters[node.type] : undefined) ?? 'j';
  const children: Record<string, PropertyTree> = {};
  for (const name of Object.keys(node.properties ?? {}).sort()) {
    children[name] = propertyTreeOf((node.properties as Record<string, CrdNode>)[name] as CrdNode);
  }
  if (node.items !== undefined) children['[]'] = propertyTreeOf(node.items);
  if (typeof node.additionalProperties === 'object')
    children['{}'] = propertyTreeOf(node.additionalProperties);
  return Object.keys(children).length > 0 ? [letter, children] : letter;
}

interface CrdDocument {
  readonly spec?: {
    readonly group?: string;
    readonly names?: { readonly kind?: string };
    readonly versions?: readonly {
      readonly name?: string;
      readonly served?: boolean;
      readonly storage?: boolean;
      readonly schema?: { readonly openAPIV3Schema?: CrdNode };
    }[];
  };
}

/**
 * Every CRD in the YAML files of `dir` (the operator's CRD files of one release, one or more CRDs per file),
 * reduced to {@link ReleaseTrees}. A document that is no CRD with a group, kind and versions is named and
 * refused, so that a broken release folder never yields a quietly smaller catalog.
 */
export function releaseTreesIn(dir: string): ReleaseTrees {
  const out: ReleaseTrees = {};
  for (const file of readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()) {
    for (const document of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const crd = document.toJS() as CrdDocument | null;
      if (crd === null) continue;
      const group = crd.spec?.group;
      const kind = crd.spec?.names?.kind;
      const versions = crd.spec?.versions;
      if (group === undefined || kind === undefined || versions === undefined)
        throw new Error(`${join(dir, file)}: a document is not a CRD with a group, kind and versions`);
      const byVersion: Record<string, ReleaseVersion> = {};
      for (const version of versions) {
        const schema = version.schema?.openAPIV3Schema;
        if (version.name === undefined || schema === undefined)
          throw new Error(`${join(dir, file)}: ${kind} has a version without a name or schema`);
        const root: Record<string, PropertyTree> = {};
        for (const part of ['spec', 'status'] as const) {
          const node = schema.properties?.[part];
          if (node !== undefined) root[part] = propertyTreeOf(node);
        }
        byVersion[version.name] = {
          served: version.served === true,
          storage: version.storage === true,
          tree: ['o', root],
        };
      }
      out[`${group}/${kind}`] = byVersion;
    }
  }
  return out;
}
