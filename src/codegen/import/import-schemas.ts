import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { isPlaceholder } from '../../lib/adoption/arm-uri.ts';
import { type GeneratorConfig, type Published, type TypeRename, validateConfig } from '../model/config.ts';
import { groupOfType, kindOf, pluralOf } from '../model/names.ts';
import { servedPrefixes } from '../model/served-prefixes.ts';
import { versionName } from '../model/versions.ts';
import { configFile, derivedConfigFile } from '../stages/load-config.ts';
import { annotateArmPaths, armGoPackageOf, keepArmPaths } from './arm-paths.ts';
import { armSchema, DefinitionNames, oneOfArmSchema, stableJson } from './arm-schema.ts';
import { DerivedConfig } from './derived-config.ts';
import { type Hints, readHints } from './hints.ts';
import { importedKubernetesKinds, importedTypes } from './imported-types.ts';
import { importKubernetesKinds } from './kubernetes-kinds.ts';
import { operatorTypeRenames } from './next-version-names.ts';
import { OperatorGoSource, OperatorGoSourceMissing } from './operator-go.ts';
import { type CrdIdentity, type CrdVersion, RealCrds } from './real-crds.ts';
import { releaseCatalogFile } from './release-catalog-file.ts';
import type { Reversal } from './reverse.ts';
import { oneOfLeaves, reverseCrd, UnsupportedCrdShape } from './reverse.ts';
import { apiVersionOfServed } from './served-versions.ts';

/** Where the import reads and writes. */
export interface ImportOptions {
  /** The folder of the operator's CRDs (`../shared/real-aso-crds/v2.20.0`). */
  readonly crdDir: string;
  /** The shipped schemas: which types and API versions to import, the config, and the hints. */
  readonly schemasDir: string;
  /** Where the imported schemas are written (`schemasDir` itself, or elsewhere to compare). */
  readonly outDir: string;
  /** The ARM types to import (default: `importedTypes`). */
  readonly types?: readonly string[];
  /** The kinds managed without ARM to import (default: `importedKubernetesKinds` unless `types` is given). */
  readonly kubernetesKinds?: readonly string[];
  /**
   * The operator's Go module (`.../azure-service-operator/v2@v2.20.0`), for status enum values. When the
   * folder is absent, a schema already shipped keeps its status enums and a new one is refused.
   */
  readonly operatorGoDir?: string;
  /**
   * Earlier operator releases, newest first: the source of every API version one of them served and the
   * current release (`crdDir`) no longer serves (AKS's `v1api20240402preview`, served by v2.18.0 and removed
   * by v2.20.0), so that the core still converts objects and manifests written at it.
   */
  readonly earlierReleases?: readonly EarlierRelease[];
}

/** One earlier operator release the import reads removed versions from. */
export interface EarlierRelease {
  /** Its name (`v2.18.0`), recorded with the versions read from it. */
  readonly release: string;
  /** Its CRDs (`../shared/real-aso-crds/v2.18.0`, or made from its Go module). */
  readonly crdDir: string;
  /** Its Go module, for status enums, ARM paths and type renames, as `operatorGoDir` is for the current one. */
  readonly operatorGoDir?: string;
}

/** Where one API version's schema is read from: the current release or an earlier one. */
interface ImportSource {
  readonly release?: string;
  readonly crds: RealCrds;
  readonly go: OperatorGoSource | undefined;
}

/** One schema file the import wrote. */
export interface ImportedSchema {
  /** Relative to the output folder: `Microsoft.Sql/2021-11-01/servers.json`. */
  readonly file: string;
  /** The real CRD and version it came from. */
  readonly crd: string;
  readonly version: string;
}

/**
 * `npm run schemas:import`: rewrites the shipped schemas of the imported types, at every API version the
 * shipped schemas cover, from the operator's CRDs, so that the generator's input describes the ARM API as
 * the operator has it. Files are written in sorted order and every JSON key sorted: importing again gives
 * the same bytes. Nothing is written unless every file imports and the config redoes every transformation.
 */
export function importSchemas(options: ImportOptions): {
  written: ImportedSchema[];
  skipped: ImportedSchema[];
  /** Whether status enum values came from the operator's Go types (else kept from the schemas replaced). */
  goSource: boolean;
} {
  // Only the hand-written config: the derived one is what this import writes.
  const config = validateConfig(parse(readFileSync(join(options.schemasDir, configFile), 'utf8')));
  const crds = new RealCrds(options.crdDir);
  const goOf = (dir: string | undefined) => (dir === undefined ? undefined : OperatorGoSource.at(dir));
  const current: ImportSource = { crds, go: goOf(options.operatorGoDir) };
  const earlier: ImportSource[] = (options.earlierReleases ?? []).map((r) => ({
    release: r.release,
    crds: new RealCrds(r.crdDir),
    go: goOf(r.operatorGoDir),
  }));
  const types = new Set(options.types ?? importedTypes);
  const identities = new Map<string, CrdIdentity | undefined>();
  // The current release's identity, with every version an earlier release served beside its own.
  const identityOf = (armType: string) => {
    if (!identities.has(armType)) {
      const group = groupOfType(config.groups, armType);
      const identity = crds.ofArmType(`${group}.${config.groupSuffix}`, armType);
      if (!identity) throw new ImportedTypeWithoutCrd(armType, `${group}.${config.groupSuffix}`);
      const removed = earlier.flatMap(
        (source) => source.crds.ofArmType(`${group}.${config.groupSuffix}`, armType)?.versions ?? [],
      );
      identities.set(armType, { ...identity, versions: [...new Set([...identity.versions, ...removed])] });
    }
    return identities.get(armType);
  };
  // Every API version the operator serves or served for an imported type has a schema file.
  const files = [
    ...new Set([
      ...schemaFiles(options.schemasDir),
      ...[...types].flatMap((armType) => servedSchemaFiles(config, armType, identityOf(armType))),
    ]),
  ].sort();
  const derived = new DerivedConfig();
  // The prefixes each API version is served under decide the version names below: derived first.
  const published = publishedPrefixes(config, [...types], identityOf);
  for (const entry of published) derived.published(entry);
  const withPublished: GeneratorConfig = { ...config, published: [...config.published, ...published] };
  const names = new Map<string, DefinitionNames>();
  // Names defined by the package's hand-written schemas are taken: an imported type must not reuse them.
  for (const file of files.filter((f) => !types.has(armTypeOf(f)))) {
    const registry = namesFor(names, packageOf(config, file));
    const doc = JSON.parse(readFileSync(join(options.schemasDir, file), 'utf8')) as {
      definitions?: Record<string, unknown>;
    };
    for (const name of Object.keys(doc.definitions ?? {})) registry.claim(name, '', { handWritten: file });
  }
  const go = current.go;
  // API versions read from an earlier release, per group: their type renames come from that release.
  const fromEarlier = new Map<ImportSource, Map<string, Set<string>>>();
  const written: { file: string; text: string; crd: string; version: string }[] = [];
  const skipped: ImportedSchema[] = [];
  for (const file of files.filter((f) => types.has(armTypeOf(f)))) {
    const [provider = '', apiVersion = ''] = file.split('/');
    const typePath =
      file
        .split('/')[2]
        ?.replace(/\.json$/, '')
        .replaceAll('.', '/') ?? '';
    const armType = `${provider}/${typePath}`;
    const group = groupOfType(config.groups, armType);
    const identity = identityOf(armType);
    const kind = identity?.kind ?? config.kinds[armType] ?? kindOf(typePath);
    const crdFile = identity?.file ?? `${group}.${config.groupSuffix}_${pluralOf(kind)}.yaml`;
    if (identity) {
      derived.names(armType, kind, kindOf(typePath), identity.plural, pluralOf(kind));
      derived.scope(armType, identity.scope);
    }
    const [prefix = 'ga'] = servedPrefixes(withPublished, group, apiVersion, armType);
    const version = versionName(config.prefixes, prefix, apiVersion);
    // An API version no release serves has nothing to import from: it stays as written, and the caller
    // lists it.
    const source = [current, ...earlier].find((s) => s.crds.serves(crdFile, version));
    if (!source) {
      skipped.push({ file, crd: crdFile, version });
      continue;
    }
    if (source !== current) {
      derived.removedVersion(group, apiVersion, source.release ?? '');
      const byGroup = fromEarlier.get(source) ?? new Map<string, Set<string>>();
      byGroup.set(group, (byGroup.get(group) ?? new Set()).add(apiVersion));
      fromEarlier.set(source, byGroup);
    }
    const { go } = source;
    const crd = source.crds.version(crdFile, version);
    derived.operatorSpec(armType, apiVersion, crd.spec.properties?.operatorSpec);
    const schemaPath = join(options.schemasDir, file);
    // Without the Go types, only a schema this import wrote (with them) has the status enums to keep.
    if (!go && !writtenByImport(schemaPath))
      throw new OperatorGoSourceMissing(
        options.operatorGoDir ?? '(no folder given)',
        `the status enums of ${file}, which was not imported before`,
      );
    const leaves = oneOfLeaves(crd.file, crd.spec, crd.status);
    if (leaves) {
      // A oneOf resource (seed 004): each leaf is a resource body of its own, named after the spec's
      // property for it as the operator names the property after the leaf's type. Its status enums are
      // those under the status property holding the leaf.
      const reversed = leaves.map((leaf) => {
        const name = leaf.property.charAt(0).toUpperCase() + leaf.property.slice(1);
        const statusEnums = go?.statusEnums(group, version, kind, leaf.statusProperty);
        return {
          name,
          hints: withGoNames(readHints(schemaPath, name), leafGoNames(crd.goTypeNames, leaf.property)),
          ...(statusEnums ? { statusEnums } : {}),
          ...reverseCrd(crd.file, leaf.spec, leaf.status),
        };
      });
      const { document, definitionAt } = oneOfArmSchema(
        {
          provider,
          typePath,
          apiVersion,
          kind,
          description: readHints(schemaPath).description,
          leaves: reversed,
          nameRules: crd.spec.properties?.azureName,
        },
        namesFor(names, packageOf(config, file)),
      );
      for (const leaf of reversed)
        addReversals(derived, group, apiVersion, leaf.name, leaf.reversals, definitionAt.get(leaf.name));
      written.push({ file, text: stableJson(document), crd: crdFile, version });
      continue;
    }
    // A oneOf resource's identity lives in its leaves; a plain one's at the status's root.
    derived.statusOmits(armType, crd.status);
    const { fields, reversals } = reverseCrd(crd.file, crd.spec, crd.status);
    const fixedName = fixedNameOf(
      crd,
      () => go?.fixedAzureName(group, version, kind) ?? fixedNameWritten(schemaPath),
    );
    const statusEnums = go?.statusEnums(group, version, kind);
    const { document, definitionAt } = armSchema(
      {
        provider,
        typePath,
        apiVersion,
        kind,
        fields,
        hints: withGoNames(readHints(schemaPath), crd.goTypeNames),
        ...(fixedName !== undefined ? { fixedName } : {}),
        nameRules: crd.spec.properties?.azureName,
        ...(statusEnums ? { statusEnums } : {}),
        statusType: crd.statusTypeName,
      },
      namesFor(names, packageOf(config, file)),
    );
    addReversals(derived, group, apiVersion, `${kind}_Spec`, reversals, definitionAt);
    withArmPaths(document, go?.dir, group, apiVersion, armType, schemaPath);
    written.push({ file, text: stableJson(document), crd: crdFile, version });
  }
  for (const w of written) {
    const path = join(options.outDir, w.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, w.text);
  }
  // The operator's type renames come from its generator config in the Go module; without the module, those
  // the last import wrote are kept, as the status enums are.
  const apiVersions = new Map<string, string[]>();
  for (const file of files) {
    const [, apiVersion = ''] = file.split('/');
    const group = groupOfType(config.groups, armTypeOf(file));
    apiVersions.set(group, [...new Set([...(apiVersions.get(group) ?? []), apiVersion])]);
  }
  const renames = go
    ? operatorTypeRenames(go.dir, apiVersions)
    : previousTypeRenames(options.schemasDir, apiVersions);
  for (const [source, only] of fromEarlier)
    renames.push(
      ...(source.go
        ? operatorTypeRenames(source.go.dir, apiVersions, only)
        : previousTypeRenames(options.schemasDir, apiVersions)),
    );
  derived.renamedTypes(uniqueRenames(renames));
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, derivedConfigFile), derived.text());
  const kubernetesKinds = importKubernetesKinds(
    options.crdDir,
    options.outDir,
    options.kubernetesKinds ?? (options.types === undefined ? importedKubernetesKinds : []),
  );
  return {
    written: [...written.map(({ file, crd, version }) => ({ file, crd, version })), ...kubernetesKinds],
    skipped,
    goSource: go !== undefined,
  };
}

/**
 * The schema's own definition names first (importing again changes nothing), then the operator's Go type
 * names for definitions the schema does not name yet: a new type gets the operator's name, so that two
 * versions' types line up as the operator's conversions do and two shapes never compete for one name.
 */
function withGoNames(hints: Hints, goTypeNames: ReadonlyMap<string, string>): Hints {
  return { ...hints, definitions: new Map([...goTypeNames, ...hints.definitions]) };
}

/** The Go names under one leaf of a oneOf spec (`readWriteDatabase.x` -> `x`). */
function leafGoNames(goTypeNames: ReadonlyMap<string, string>, leaf: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, name] of goTypeNames)
    if (path.startsWith(`${leaf}.`)) out.set(path.slice(leaf.length + 1), name);
  return out;
}

/** Each undone transformation, on the definition that holds it (the spec's own type for the root). */
function addReversals(
  derived: DerivedConfig,
  group: string,
  apiVersion: string,
  specType: string,
  reversals: readonly Reversal[],
  definitionAt: ReadonlyMap<string, string> | undefined,
): void {
  for (const r of reversals) {
    const type = r.owner === '' ? specType : definitionAt?.get(r.owner);
    if (type === undefined) throw new Error(`no definition was written for ${r.owner}`);
    derived.reversal(group, apiVersion, type, r);
  }
}

/**
 * The schema files of every API version the operator's CRD serves for an ARM type (`Microsoft.Cache/
 * 2024-11-01/redis.json`), so that adding a type to the import is one line: its versions follow the CRD.
 * Versions of the compatibility prefixes are clones the generator makes, not schemas of their own.
 */
function servedSchemaFiles(
  config: GeneratorConfig,
  armType: string,
  identity: CrdIdentity | undefined,
): string[] {
  if (!identity) return [];
  const [provider = '', ...path] = armType.split('/');
  return identity.versions.flatMap((version) => {
    const apiVersion = apiVersionOfServed(config.prefixes, version);
    return apiVersion === undefined ? [] : [`${provider}/${apiVersion}/${path.join('.')}.json`];
  });
}

/**
 * The prefixes under which the operator serves each API version of the imported types, per group, where
 * not GA alone (`v1api20230301` and `v20230301`: [ga, plain]; only `v20250701`: [plain]). Where a group's
 * types disagree at a date (API Management's 2024-05-01 users only as `v20240501`, its services under both),
 * each set of prefixes gets an entry naming its types, GA alone included, so that every package the
 * generator builds and clones for that date holds exactly the kinds the operator serves under its name.
 */
function publishedPrefixes(
  config: GeneratorConfig,
  types: readonly string[],
  identityOf: (armType: string) => CrdIdentity | undefined,
): Published[] {
  const dates = new Map<string, { group: string; apiVersion: string; byType: Map<string, string> }>();
  for (const armType of [...types].sort()) {
    const identity = identityOf(armType);
    if (!identity) continue;
    const group = groupOfType(config.groups, armType);
    const byDate = new Map<string, Set<'ga' | 'plain'>>();
    for (const version of identity.versions) {
      const apiVersion = apiVersionOfServed(config.prefixes, version);
      if (apiVersion === undefined) continue;
      const prefix = version.startsWith(config.prefixes.ga) ? 'ga' : 'plain';
      byDate.set(apiVersion, (byDate.get(apiVersion) ?? new Set()).add(prefix));
    }
    for (const [apiVersion, set] of byDate) {
      const key = `${group} ${apiVersion}`;
      const date = dates.get(key) ?? { group, apiVersion, byType: new Map<string, string>() };
      date.byType.set(armType, (['ga', 'plain'] as const).filter((p) => set.has(p)).join(','));
      dates.set(key, date);
    }
  }
  const entries = new Map<string, Published & { apiVersions: string[] }>();
  const add = (group: string, apiVersion: string, prefixes: string, only?: readonly string[]) => {
    const key = JSON.stringify([group, prefixes, only ?? []]);
    const entry = entries.get(key) ?? {
      group,
      apiVersions: [],
      prefixes: prefixes.split(',') as ('ga' | 'plain')[],
      ...(only ? { types: [...only] } : {}),
    };
    entry.apiVersions.push(apiVersion);
    entries.set(key, entry);
  };
  for (const { group, apiVersion, byType } of [...dates.values()].sort((a, b) =>
    `${a.group} ${a.apiVersion}` < `${b.group} ${b.apiVersion}` ? -1 : 1,
  )) {
    const sets = [...new Set(byType.values())].sort();
    if (sets.length === 1) {
      if (sets[0] !== 'ga') add(group, apiVersion, sets[0] ?? 'ga');
      continue;
    }
    for (const prefixes of sets)
      add(
        group,
        apiVersion,
        prefixes,
        [...byType.entries()].filter(([, p]) => p === prefixes).map(([armType]) => armType),
      );
  }
  return [...entries.values()];
}

/** Whether the schema file is one this import wrote (its description says so), not a hand-written one. */
function writtenByImport(path: string): boolean {
  if (!existsSync(path)) return false;
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { description?: unknown };
  return typeof doc.description === 'string' && doc.description.includes('`npm run schemas:import`');
}

/**
 * The name a resource always has in ARM, when it has one: the operator leaves `azureName` out of such a
 * spec and writes the name as the last segment of the version's `ARM URI` (`.../blobServices/default`).
 */
function fixedNameOf(crd: CrdVersion, fromGo: () => string | undefined): string | undefined {
  if (crd.spec.properties?.azureName !== undefined) return undefined;
  const last = crd.armUri?.split('/').at(-1);
  if (last !== undefined && last !== '' && !isPlaceholder(last)) return last;
  // Else the Go type's `AzureName()` names it (API Management's policies: `.../policies/{policyId}`, always
  // `policy`).
  const named = fromGo();
  if (named === undefined)
    throw new UnsupportedCrdShape(
      crd.file,
      `${crd.version} spec`,
      `no azureName, its ARM URI (${crd.armUri ?? 'none'}) ends in no fixed name, and no Go AzureName() returns one`,
    );
  return named;
}

/** The fixed name a schema this import wrote before gives its resource: where the Go source is not at hand. */
function fixedNameWritten(path: string): string | undefined {
  if (!writtenByImport(path)) return undefined;
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    resourceDefinitions?: Record<string, { properties?: { name?: { enum?: unknown[] } } }>;
  };
  const [value] = Object.values(doc.resourceDefinitions ?? {}).flatMap((r) => r.properties?.name?.enum ?? []);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Every schema file under the folder, relative to it, sorted: `Microsoft.Sql/2021-11-01/servers.json`. The
 * release catalog's folder holds no schema.
 */
function schemaFiles(dir: string): string[] {
  const out: string[] = [];
  const releases = join(dir, dirname(releaseCatalogFile));
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (path !== releases) walk(path);
      } else if (entry.name.endsWith('.json')) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** The type renames the last import wrote, for the groups still imported. */
function previousTypeRenames(
  schemasDir: string,
  apiVersions: ReadonlyMap<string, readonly string[]>,
): TypeRename[] {
  const path = join(schemasDir, derivedConfigFile);
  if (!existsSync(path)) return [];
  const previous = parse(readFileSync(path, 'utf8')) as { renames?: { types?: TypeRename[] } } | null;
  return (previous?.renames?.types ?? []).filter((r) => apiVersions.has(r.group));
}

/** Each rename once (an earlier release's config repeats the renames its later versions share), sorted. */
function uniqueRenames(renames: readonly TypeRename[]): TypeRename[] {
  const key = (r: TypeRename) => `${r.group} ${r.apiVersion} ${r.from}`;
  const byKey = new Map(renames.map((r) => [key(r), r]));
  return [...byKey.keys()].sort().map((k) => byKey.get(k) as TypeRename);
}

function armTypeOf(file: string): string {
  const [provider, , name = ''] = file.split('/');
  return `${provider}/${name.replace(/\.json$/, '').replaceAll('.', '/')}`;
}

/**
 * Writes `x-arm-path` into an imported schema document from the operator's ARM Go types of its API version
 * (arm-paths.ts), as `npm run schemas:arm-paths` does for every schema file; without the Go types, keeps
 * those of the schema file it replaces.
 */
function withArmPaths(
  document: unknown,
  goDir: string | undefined,
  group: string,
  apiVersion: string,
  armType: string,
  schemaPath: string,
): void {
  const target = document as Parameters<typeof annotateArmPaths>[0];
  if (goDir === undefined) {
    if (existsSync(schemaPath)) keepArmPaths(target, JSON.parse(readFileSync(schemaPath, 'utf8')));
    return;
  }
  const pkg = armGoPackageOf(goDir, group, apiVersion, armType);
  if (pkg) annotateArmPaths(target, pkg, armType);
}

/** The operator's package a schema file's types land in: its group's, at its API version. */
function packageOf(config: GeneratorConfig, file: string): string {
  return `${groupOfType(config.groups, armTypeOf(file))}/${file.split('/')[1] ?? ''}`;
}

/**
 * Raised when no CRD of an imported type's group carries its ARM URI: the operator may give the type a group
 * of its own (`network.frontdoor`), which `groups` in the hand-written config must then name.
 */
export class ImportedTypeWithoutCrd extends Error {
  readonly armType: string;
  constructor(armType: string, group: string) {
    super(
      `${armType}: no CRD of ${group} carries its ARM URI; if the operator serves it under another group, name that group under groups: in schemas/generator-config.yaml`,
    );
    this.armType = armType;
  }
}

function namesFor(names: Map<string, DefinitionNames>, pkg: string): DefinitionNames {
  let registry = names.get(pkg);
  if (!registry) {
    registry = new DefinitionNames();
    names.set(pkg, registry);
  }
  return registry;
}

/** The config the import checks transformations against, for callers that want it. */
export type { GeneratorConfig };
