import type { ConversionGraph } from '../conversions/graph.ts';
import type { KubernetesKindSchema } from '../model/kubernetes-kinds.ts';
import { fullGroup, shortGroup } from '../model/types.ts';
import { tsHeader } from './code.ts';

/**
 * `generated/registry.ts`: every kind's versions with the conversion stepping each one up towards the hub
 * and down from the version above, compiled from the group's plans on first use. The single entry point
 * walks this table.
 */
export function emitRegistry(
  graph: ConversionGraph,
  suffix: string,
  kubernetesKinds: readonly KubernetesKindSchema[] = [],
): string {
  const out: string[] = [tsHeader()];
  out.push('/** The conversion table of every generated kind: what the single entry point walks. */\n');
  out.push(`import { groupConverters } from '../src/lib/conversion/plan-converters.ts';\n`);
  out.push(`import type { ConversionRegistry } from '../src/lib/conversion/registry-types.ts';\n`);
  const groups = [...new Set(graph.kinds.map((k) => k.group))].sort();
  for (const group of groups)
    out.push(`import { plans as ${identifierOf(group)}_plans } from './${group}/conversion-plans.ts';\n`);
  out.push('\n');
  for (const group of groups)
    out.push(
      `const ${identifierOf(group)}_conversions = groupConverters('${fullGroup(group, suffix)}', ${identifierOf(group)}_plans);\n`,
    );
  out.push(
    '\n/** Group -> kind -> version -> up and down steps. */\nexport const registry: ConversionRegistry = {\n  groups: {\n',
  );
  const withoutArm = (group: string) => kubernetesKinds.filter((k) => k.group === fullGroup(group, suffix));
  const allGroups = [
    ...new Set([...groups, ...kubernetesKinds.map((k) => shortGroup(k.group, suffix))]),
  ].sort();
  for (const group of allGroups) {
    out.push(`    '${fullGroup(group, suffix)}': {\n`);
    // A kind managed without ARM has its versions and nothing to convert: each is the storage version.
    for (const kind of withoutArm(group)) {
      const hub = kind.versions.find((v) => v.storage)?.name ?? '';
      out.push(`      ${kind.names.kind}: {\n        hub: '${hub}',\n        versions: {\n`);
      for (const v of kind.versions) out.push(`          ${v.name}: { storage: true },\n`);
      out.push('        },\n      },\n');
    }
    for (const kind of graph.kinds.filter((k) => k.group === group)) {
      out.push(`      ${kind.kind}: {\n        hub: '${kind.hub}',\n        versions: {\n`);
      for (const v of kind.apiVersions) {
        const at = (fn: string) => `${identifierOf(group)}_conversions.resource('${v}', '${fn}')`;
        out.push(
          `          ${v}: { storage: false, up: { to: '${v}storage', convert: ${at(`${kind.kind}_toStorage`)} }, down: { from: '${v}storage', convert: ${at(`${kind.kind}_fromStorage`)} } },\n`,
        );
      }
      for (const v of kind.storageVersions) {
        const next = kind.next.get(v);
        const at = (fn: string) => `${identifierOf(group)}_conversions.resource('${v}', '${fn}')`;
        if (!next) out.push(`          ${v}: { storage: true },\n`);
        else
          out.push(
            `          ${v}: { storage: true, up: { to: '${next}', convert: ${at(`${kind.kind}_to_${next}`)} }, down: { from: '${next}', convert: ${at(`${kind.kind}_from_${next}`)} } },\n`,
          );
      }
      out.push('        },\n      },\n');
    }
    out.push('    },\n');
  }
  out.push('  },\n};\n');
  return out.join('');
}

/** A group as a TypeScript identifier: `network.frontdoor` -> `network_frontdoor`. */
function identifierOf(group: string): string {
  return group.replaceAll('.', '_');
}
