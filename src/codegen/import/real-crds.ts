import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { armUriInDescription, parseArmUri } from '../../lib/adoption/arm-uri.ts';
import type { Bounds, ResourceScope } from '../model/types.ts';

/** The part of an OpenAPI v3 schema the real CRDs use for spec and status trees. */
export interface CrdNode extends Bounds {
  readonly type?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, CrdNode>>;
  readonly items?: CrdNode;
  readonly additionalProperties?: CrdNode | boolean;
  readonly enum?: readonly (string | number)[];
  readonly pattern?: string;
  readonly format?: string;
  readonly required?: readonly string[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** The spec and status trees of one served version of a real CRD. */
export interface CrdVersion {
  readonly file: string;
  readonly version: string;
  readonly spec: CrdNode;
  readonly status: CrdNode;
  /** The `ARM URI` the operator writes into the version's description (its last segment may be a fixed name). */
  readonly armUri?: string;
  /**
   * The operator's Go type name of each object by its path in the spec and status (`network`, `ipRules[]`,
   * `identity.userAssignedIdentities{}`), read from the version's storage variant, whose descriptions say
   * `Storage version of v1api20230101.Network`; a status type's `_STATUS` suffix taken off. Names the
   * import gives new definitions, so that types are named as the operator names them.
   */
  readonly goTypeNames: ReadonlyMap<string, string>;
  /**
   * The Go type of the resource's status, from the storage variant's description: usually `<Kind>_STATUS`,
   * but Redis's linked server has `Redis_LinkedServer_STATUS` (Redis's list entry is `RedisLinkedServer_STATUS`).
   */
  readonly statusTypeName?: string;
}

/**
 * The import cannot run without the operator's CRDs: raised naming the file (or folder) it looked for, so
 * the message says where to put them instead of a stack trace from a failed read.
 */
export class RealCrdMissing extends Error {
  readonly path: string;

  constructor(path: string) {
    super(`real ASO CRD not found: ${path} (pass the folder of ASO's CRDs as the first argument)`);
    this.name = 'RealCrdMissing';
    this.path = path;
  }
}

/** Raised when a real CRD lacks the version the import needs, naming both. */
export class RealCrdVersionMissing extends Error {
  readonly path: string;
  readonly version: string;

  constructor(path: string, version: string) {
    super(`${path} does not serve ${version}`);
    this.name = 'RealCrdVersionMissing';
    this.path = path;
    this.version = version;
  }
}

interface CrdDocument {
  spec?: {
    names?: { kind?: string; plural?: string };
    versions?: {
      name: string;
      schema?: { openAPIV3Schema?: { description?: string; properties?: Record<string, CrdNode> } };
    }[];
  };
}

/** Records the Go type named by each object node's description below `node` (the first name a path gets wins). */
function goTypeNamesIn(node: CrdNode, path: string, out: Map<string, string>): void {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const at = path === '' ? name : `${path}.${name}`;
    goTypeNameOf(child, at, out);
  }
}

/** The Go type a storage variant's node says it is (`Storage version of v1api20201201.Redis_STATUS`). */
function storedGoTypeName(node: CrdNode | undefined): string | undefined {
  return /^Storage version of [A-Za-z0-9]+\.([A-Za-z0-9_]+)/.exec(node?.description ?? '')?.[1];
}

function goTypeNameOf(node: CrdNode, path: string, out: Map<string, string>): void {
  const named = storedGoTypeName(node);
  if (named && !out.has(path)) out.set(path, named.replace(/_STATUS$/, ''));
  if (node.properties) goTypeNamesIn(node, path, out);
  if (node.items) goTypeNameOf(node.items, `${path}[]`, out);
  if (typeof node.additionalProperties === 'object')
    goTypeNameOf(node.additionalProperties, `${path}{}`, out);
}

/** Which CRD holds an ARM resource type, and the names the operator gives it. */
export interface CrdIdentity {
  readonly file: string;
  readonly kind: string;
  readonly plural: string;
  /** Where the resource lives, from its ARM URI. */
  readonly scope: ResourceScope;
  /** Every version the CRD serves, storage versions included. */
  readonly versions: readonly string[];
}

/**
 * Reads one version of a real CRD, so that the rest of the import works on plain spec and status trees.
 * Files are parsed once per run (a StorageAccount CRD is several megabytes).
 */
export class RealCrds {
  private readonly parsed = new Map<string, CrdDocument>();

  readonly dir: string;

  constructor(dir: string) {
    if (!existsSync(dir)) throw new RealCrdMissing(dir);
    this.dir = dir;
  }

  /** Whether the CRD file `file` serves `version`. */
  serves(file: string, version: string): boolean {
    return this.document(file).spec?.versions?.some((v) => v.name === version) ?? false;
  }

  /** The spec and status of `version` in the CRD file `file` (`sql.azure.com_servers.yaml`). */
  version(file: string, version: string): CrdVersion {
    const path = join(this.dir, file);
    const doc = this.document(file);
    const found = doc.spec?.versions?.find((v) => v.name === version);
    const props = found?.schema?.openAPIV3Schema?.properties;
    if (!props?.spec) throw new RealCrdVersionMissing(path, version);
    const armUri = armUriInDescription(found?.schema?.openAPIV3Schema?.description);
    const storage = doc.spec?.versions?.find((v) => v.name === `${version}storage`)?.schema?.openAPIV3Schema
      ?.properties;
    const goTypeNames = new Map<string, string>();
    if (storage?.spec) goTypeNamesIn(storage.spec, '', goTypeNames);
    if (storage?.status) goTypeNamesIn(storage.status, '', goTypeNames);
    const statusTypeName = storedGoTypeName(storage?.status);
    return {
      file: path,
      version,
      spec: props.spec,
      status: props.status ?? {},
      ...(armUri ? { armUri } : {}),
      goTypeNames,
      ...(statusTypeName ? { statusTypeName } : {}),
    };
  }

  /**
   * The CRD of an ARM resource type among the group's CRD files (`cache` -> `cache.azure.com_*.yaml`), found
   * by the `ARM URI` its versions carry: the operator's kind and plural names do not follow one rule
   * (`Microsoft.Cache/redis` is `Redis`, plural `redis`; `Microsoft.Subscription/aliases` is `Alias`).
   */
  ofArmType(groupDomain: string, armType: string): CrdIdentity | undefined {
    const wanted = armType.toLowerCase();
    for (const file of readdirSync(this.dir)
      .filter((f) => f.startsWith(`${groupDomain}_`))
      .sort()) {
      const doc = this.document(file);
      const versions = doc.spec?.versions ?? [];
      const uri = versions
        .map((v) => armUriInDescription(v.schema?.openAPIV3Schema?.description))
        .find((u) => u !== undefined);
      const parsed = uri === undefined ? undefined : parseArmUri(uri);
      if (parsed === undefined || `${parsed.provider}/${parsed.typePath.join('/')}`.toLowerCase() !== wanted)
        continue;
      const kind = doc.spec?.names?.kind;
      const plural = doc.spec?.names?.plural;
      if (kind === undefined || plural === undefined) continue;
      return { file, kind, plural, scope: parsed.scope, versions: versions.map((v) => v.name) };
    }
    return undefined;
  }

  private document(file: string): CrdDocument {
    const path = join(this.dir, file);
    let doc = this.parsed.get(path);
    if (!doc) {
      if (!existsSync(path)) throw new RealCrdMissing(path);
      doc = parse(readFileSync(path, 'utf8')) as CrdDocument;
      this.parsed.set(path, doc);
    }
    return doc;
  }
}
