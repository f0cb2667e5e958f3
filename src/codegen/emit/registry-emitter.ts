import type { ConversionGraph } from '../conversions/graph.ts';
import { fullGroup } from '../model/types.ts';
import { tsHeader } from './code.ts';

/**
 * `generated/registry.ts`: every kind's versions with the generated function stepping each one up towards
 * the hub and down from the version above. The single entry point walks this table.
 */
export function emitRegistry(graph: ConversionGraph, suffix: string): string {
  const out: string[] = [tsHeader()];
  out.push('/** The conversion table of every generated kind: what the single entry point walks. */\n');
  out.push(`import type { ConversionRegistry } from '../src/lib/conversion/registry-types.ts';\n`);
  const imports = new Set<string>();
  for (const kind of graph.kinds) {
    for (const v of [...kind.apiVersions, ...kind.next.keys()]) imports.add(`${kind.group}/${v}`);
  }
  for (const key of [...imports].sort()) {
    out.push(`import * as ${alias(key)} from './${key}/conversions.ts';\n`);
  }
  out.push(
    '\n/** Group -> kind -> version -> up and down steps. */\nexport const registry: ConversionRegistry = {\n  groups: {\n',
  );
  const groups = [...new Set(graph.kinds.map((k) => k.group))].sort();
  for (const group of groups) {
    out.push(`    '${fullGroup(group, suffix)}': {\n`);
    for (const kind of graph.kinds.filter((k) => k.group === group)) {
      out.push(`      ${kind.kind}: {\n        hub: '${kind.hub}',\n        versions: {\n`);
      for (const v of kind.apiVersions) {
        const ns = alias(`${group}/${v}`);
        out.push(
          `          ${v}: { storage: false, up: { to: '${v}storage', convert: ${ns}.${kind.kind}_toStorage }, down: { from: '${v}storage', convert: ${ns}.${kind.kind}_fromStorage } },\n`,
        );
      }
      for (const v of kind.storageVersions) {
        const next = kind.next.get(v);
        const ns = alias(`${group}/${v}`);
        if (!next) out.push(`          ${v}: { storage: true },\n`);
        else
          out.push(
            `          ${v}: { storage: true, up: { to: '${next}', convert: ${ns}.${kind.kind}_to_${next} }, down: { from: '${next}', convert: ${ns}.${kind.kind}_from_${next} } },\n`,
          );
      }
      out.push('        },\n      },\n');
    }
    out.push('    },\n');
  }
  out.push('  },\n};\n');
  return out.join('');
}

function alias(key: string): string {
  return key.replace('/', '_');
}
