import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sea from 'node:sea';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { crdArchiveName, crdArchiveSuffix, decompressCrdYaml } from './crd-archive.ts';

/** The single-executable asset that lists the groups whose archives it carries (one group a line). */
export const crdAssetIndex = 'crds/index.txt';

/** The single-executable asset name of a group's archive. */
export function crdAssetName(group: string): string {
  return `crds/${crdArchiveName(group)}`;
}

/** A generated CRD as parsed JSON: the fields kubectl-aso reads, the rest kept. */
export interface GeneratedCrdDocument {
  apiVersion: string;
  kind: 'CustomResourceDefinition';
  metadata: { name: string; [field: string]: unknown };
  spec: {
    group: string;
    names: { kind: string; plural: string; [field: string]: unknown };
    versions: Array<{
      name: string;
      served: boolean;
      storage: boolean;
      schema?: { openAPIV3Schema?: Record<string, unknown> };
      [field: string]: unknown;
    }>;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** One generated CRD: who it is, its YAML, and (parsed when first asked for) its document. */
export interface GeneratedCrd {
  group: string;
  kind: string;
  plural: string;
  /** The operator's file name of this CRD, `<group>_<plural>.yaml`. */
  fileName: string;
  /** This CRD's YAML document, without the generated marker line. */
  yaml: string;
  document(): GeneratedCrdDocument;
}

/** Where the archives are read from: a folder (sources, npm install) or the single executable's assets. */
export interface CrdArchiveSource {
  /** Where, for messages. */
  description: string;
  groups(): string[];
  read(group: string): Uint8Array;
}

/** The archives in a folder (`generated/crds`). */
export function folderSource(dir: string): CrdArchiveSource {
  return {
    description: dir,
    groups: () =>
      readdirSync(dir)
        .filter((name) => name.endsWith(crdArchiveSuffix))
        .map((name) => name.slice(0, -crdArchiveSuffix.length))
        .sort(),
    read: (group) => readFileSync(join(dir, crdArchiveName(group))),
  };
}

/** The archives packed into the single executable by scripts/package.ts. */
function seaSource(): CrdArchiveSource {
  return {
    description: 'the kubectl-aso executable',
    groups: () =>
      sea
        .getAsset(crdAssetIndex, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    read: (group) => new Uint8Array(sea.getAsset(crdAssetName(group))),
  };
}

function hasSeaIndex(): boolean {
  try {
    sea.getAsset(crdAssetIndex);
    return true;
  } catch {
    return false;
  }
}

/**
 * The archives of this installation: the single executable's assets, or the folder `generated/crds`
 * found by walking up from this module (the same from the sources, src/lib/crds, and the build,
 * dist/src/lib/crds). Undefined when this build carries none.
 */
export function installedCrdSource(): CrdArchiveSource | undefined {
  if (sea.isSea()) return hasSeaIndex() ? seaSource() : undefined;
  // In the executable's bundle (CommonJS) there is no module URL: it is run from its assets, above.
  if (typeof import.meta.url !== 'string') return undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, 'generated', 'crds');
    if (existsSync(candidate)) return folderSource(candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/** The CRD document identity our emitter writes first: `metadata.name` and `spec.names.kind`. */
const metadataName = /^ {2}name: (\S+)$/m;
const namesKind = /^ {2}names:\n(?: {4}.*\n)*? {4}kind: (\S+)$/m;

function crdOf(yaml: string, where: string): GeneratedCrd {
  let parsed: GeneratedCrdDocument | undefined;
  const document = () => {
    parsed ??= parse(yaml) as GeneratedCrdDocument;
    return parsed;
  };
  const name = metadataName.exec(yaml)?.[1] ?? document().metadata.name;
  const kind = namesKind.exec(yaml)?.[1] ?? document().spec.names.kind;
  const dot = name.indexOf('.');
  if (dot <= 0) throw new Error(`a generated CRD in ${where} has the name ${name}, not <plural>.<group>`);
  const plural = name.slice(0, dot);
  const group = name.slice(dot + 1);
  return { group, kind, plural, fileName: `${group}_${plural}.yaml`, yaml, document };
}

/** Splits a group's YAML after its marker line into its documents, each starting with `---`. */
function documentsOf(yaml: string): string[] {
  return yaml.split(/^(?=---$)/m).filter((part) => part.startsWith('---'));
}

/**
 * kubectl-aso's generated CRDs, read through one place whatever the layout: each group's archive is
 * decompressed when one of its CRDs is first asked for and kept, so a run pays only for the groups it uses.
 */
export class GeneratedCrdStore {
  readonly source: CrdArchiveSource;
  readonly #groups = new Map<string, GeneratedCrd[]>();
  #groupNames: string[] | undefined;

  constructor(source: CrdArchiveSource) {
    this.source = source;
  }

  /** The API groups with generated CRDs, sorted. */
  groups(): string[] {
    this.#groupNames ??= this.source.groups();
    return this.#groupNames;
  }

  /** The CRDs of one group, in file-name order; empty for a group without generated CRDs. */
  ofGroup(group: string): GeneratedCrd[] {
    const known = this.#groups.get(group);
    if (known) return known;
    const crds = this.groups().includes(group)
      ? documentsOf(decompressCrdYaml(this.source.read(group))).map((yaml) =>
          crdOf(yaml, `${this.source.description} (${crdArchiveName(group)})`),
        )
      : [];
    this.#groups.set(group, crds);
    return crds;
  }

  /** Every generated CRD, by group then file name. */
  all(): GeneratedCrd[] {
    return this.groups().flatMap((group) => this.ofGroup(group));
  }

  /** The group, kind and file name of every generated CRD. */
  kinds(): Array<Pick<GeneratedCrd, 'group' | 'kind' | 'plural' | 'fileName'>> {
    return this.all().map(({ group, kind, plural, fileName }) => ({ group, kind, plural, fileName }));
  }

  /** The CRD of a kind, named by its kind (`Server`) or its plural (`servers`). */
  find(group: string, kindOrPlural: string): GeneratedCrd | undefined {
    return this.ofGroup(group).find((crd) => crd.kind === kindOrPlural || crd.plural === kindOrPlural);
  }

  /** The CRD of an operator file name, `<group>_<plural>.yaml`. */
  byFileName(fileName: string): GeneratedCrd | undefined {
    const separator = fileName.indexOf('_');
    if (separator <= 0) return undefined;
    return this.ofGroup(fileName.slice(0, separator)).find((crd) => crd.fileName === fileName);
  }
}

let installed: GeneratedCrdStore | undefined | null = null;

/** The generated CRDs this installation carries (see {@link installedCrdSource}), or undefined. */
export function installedGeneratedCrds(): GeneratedCrdStore | undefined {
  if (installed === null) {
    const source = installedCrdSource();
    installed = source ? new GeneratedCrdStore(source) : undefined;
  }
  return installed;
}
