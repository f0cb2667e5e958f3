import { emitGroupShapes } from '../emit/shapes-emitter.ts';
import { emitKindTests } from '../emit/tests-emitter.ts';
import { fullGroup, type PackageDef } from '../model/types.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/**
 * Writes each group's shapes (its packages' types as data, for random objects) and the conversion tests per
 * kind (seed 000, Testing).
 */
export const emitTests = stage({
  id: 'emitTests',
  description: 'Emit property-test shapes and conversion tests',
  needs: ['checkPlans', 'buildConversionGraph'],
  run: (state) => {
    const config = need(state.config, 'config');
    const namesOf = new Map<string, string[]>();
    for (const pkg of state.packages.filter((p) => !p.storage)) {
      const names = new Set(namesOf.get(pkg.group));
      for (const def of pkg.types.values())
        if (def.kind === 'object') for (const p of def.properties) names.add(p.name);
      namesOf.set(pkg.group, [...names].sort());
    }
    // Names a hook reinterprets at versions older than its own are never drawn as extras there.
    const reservedOf = (pkg: PackageDef) => {
      const reserved = new Map<string, string[]>();
      for (const h of config.hooks)
        if (h.group === pkg.group && pkg.armApiVersion < h.apiVersion)
          reserved.set(h.type, [...(reserved.get(h.type) ?? []), ...h.interprets]);
      return reserved;
    };
    for (const group of [...new Set(state.packages.map((p) => p.group))].sort())
      addFile(
        state,
        `${group}/shapes.ts`,
        emitGroupShapes(
          state.packages.filter((p) => p.group === group),
          fullGroup(group, config.groupSuffix),
          namesOf.get(group) ?? [],
          reservedOf,
        ),
      );
    for (const graph of need(state.graph, 'graph').kinds) {
      const lookup = (version: string) => {
        const pkg = state.packages.find((p) => p.group === graph.group && p.version === version);
        if (!pkg) throw new Error(`package ${graph.group}/${version} is not defined`);
        return pkg;
      };
      const hooks = config.hooks.filter((h) => {
        if (h.group !== graph.group) return false;
        const pkg = lookup(graph.apiVersions[0] ?? '');
        const r = pkg.resources.find((x) => x.kind === graph.kind);
        return r !== undefined && (h.type === r.specType || h.type === r.statusType);
      });
      addFile(
        state,
        `${graph.group}/tests/${graph.kind}.conversion.test.ts`,
        emitKindTests(graph, fullGroup(graph.group, config.groupSuffix), hooks, lookup, config.renames),
      );
    }
  },
});
