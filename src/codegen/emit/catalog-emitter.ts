import type { ConversionGraph } from '../conversions/graph.ts';
import type { KubernetesKindSchema } from '../model/kubernetes-kinds.ts';
import { fullGroup, type PackageDef, type PropertyDef, type TypeRef } from '../model/types.ts';
import { tsHeader } from './code.ts';

/**
 * `generated/catalog.ts`: per kind, its ARM resource type, scope, owner kinds, versions (with their ARM API
 * versions), hub, and the spec paths that cannot change after creation, per version.
 */
export function emitCatalog(
  graph: ConversionGraph,
  packages: readonly PackageDef[],
  suffix: string,
  kubernetesKinds: readonly KubernetesKindSchema[] = [],
): string {
  const entries = graph.kinds.map((k) => {
    const pkgs = k.apiVersions.map(
      (v) => packages.find((p) => p.group === k.group && p.version === v) as PackageDef,
    );
    const latest = pkgs.at(-1) as PackageDef;
    const resource = latest.resources.find((r) => r.kind === k.kind)!;
    const owner = resource.owner;
    return {
      group: fullGroup(k.group, suffix),
      kind: k.kind,
      plural: resource.plural,
      armType: resource.armType,
      ...(resource.fixedName !== undefined ? { fixedName: resource.fixedName } : {}),
      scope: resource.scope,
      owners:
        owner === 'any'
          ? 'any'
          : owner === undefined
            ? []
            : [{ group: fullGroup(owner.group, suffix), kind: owner.kind }],
      versions: pkgs.map((p) => ({
        version: p.version,
        armApiVersion: p.armApiVersion,
        preview: p.preview,
        prefix: p.prefix,
      })),
      storageVersions: k.storageVersions,
      hub: k.hub,
      immutable: Object.fromEntries(
        pkgs.map((p) => [p.version, immutablePaths(p, p.resources.find((r) => r.kind === k.kind)!.specType)]),
      ),
      // Only the versions that have any: most kinds have none, and the catalog is read at every start.
      writeOnly: Object.fromEntries(
        pkgs
          .map((p): [string, string[]] => [
            p.version,
            specPathsWhere(
              p,
              p.resources.find((r) => r.kind === k.kind)!.specType,
              (d) => d.writeOnly === true,
            ),
          ])
          .filter(([, paths]) => paths.length > 0),
      ),
    };
  });
  const out: string[] = [tsHeader()];
  out.push('/** The resource catalog: what kubectl-aso knows about each generated kind. */\n');
  out.push(`import type { CatalogEntry, KindWithoutArm } from '../src/lib/conversion/catalog-types.ts';\n`);
  out.push(
    `\n/** Every generated kind, sorted by group and kind. */\nexport const catalog: readonly CatalogEntry[] = ${JSON.stringify(entries, null, 2)};\n`,
  );
  const withoutArm = kubernetesKinds.map((k) => ({
    group: k.group,
    kind: k.names.kind,
    plural: k.names.plural,
    versions: k.versions.map((v) => v.name),
  }));
  out.push(
    `\n/** The kinds the operator manages without ARM, sorted by group and kind. */\nexport const kindsWithoutArm: readonly KindWithoutArm[] = ${JSON.stringify(withoutArm, null, 2)};\n`,
  );
  return out.join('');
}

/**
 * The spec paths that cannot change after creation: `spec.azureName` and `spec.owner` always (the name
 * and parent of the resource in Azure are its identity: changing them would address another resource),
 * then every property the schema marks immutable.
 */
function immutablePaths(pkg: PackageDef, typeName: string): string[] {
  const out: string[] = [];
  const root = pkg.types.get(typeName);
  // A fixed-name kind (a blob service is always `default`) has no azureName to change.
  if (root?.kind === 'object' && root.properties.some((p) => p.name === 'azureName'))
    out.push('spec.azureName');
  if (root?.kind === 'object' && root.properties.some((p) => p.name === 'owner')) out.push('spec.owner');
  out.push(...specPathsWhere(pkg, typeName, (p) => p.immutable === true));
  return out;
}

/** The spec paths of every property `chosen` picks, at any depth (`[*]` for any element of a list or map). */
function specPathsWhere(pkg: PackageDef, typeName: string, chosen: (p: PropertyDef) => boolean): string[] {
  const out: string[] = [];
  const walk = (name: string, prefix: string, seen: Set<string>): void => {
    const def = pkg.types.get(name);
    if (def?.kind !== 'object' || seen.has(name)) return;
    for (const p of def.properties) {
      const path = `${prefix}.${p.name}`;
      if (chosen(p)) out.push(path);
      const inner = objectName(p.type);
      if (inner) walk(inner.name, inner.many ? `${path}[*]` : path, new Set([...seen, name]));
    }
  };
  walk(typeName, 'spec', new Set());
  return out;
}

function objectName(ref: TypeRef): { name: string; many: boolean } | undefined {
  if (ref.kind === 'object') return { name: ref.name, many: false };
  if (ref.kind === 'array' && ref.element.kind === 'object') return { name: ref.element.name, many: true };
  if (ref.kind === 'map' && ref.value.kind === 'object') return { name: ref.value.name, many: true };
  return undefined;
}
