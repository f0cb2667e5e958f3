import { emitGroupShapes, type HookDraws } from '../emit/shapes-emitter.ts';
import { emitKindTests, pathsTo } from '../emit/tests-emitter.ts';
import { fullGroup, type PackageDef, type TypeDef, type TypeRef } from '../model/types.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/**
 * Writes each group's shapes (its packages' types as data, for random objects) and the conversion tests per
 * kind (seed 000, Testing).
 */
/** Whether a property's values are JSON: the value, or a list's elements, or a map's values. */
function holdsJson(ref: TypeRef): boolean {
  if (ref.kind === 'primitive') return ref.primitive === 'json';
  if (ref.kind === 'array') return holdsJson(ref.element);
  if (ref.kind === 'map') return holdsJson(ref.value);
  return false;
}

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
    // JSON a hook reads as a type of its own version is drawn as that type at older versions.
    const drawsOf = (pkg: PackageDef): HookDraws => {
      const byType = new Map<string, Map<string, TypeDef>>();
      for (const h of config.hooks) {
        if (h.group !== pkg.group || pkg.armApiVersion >= h.apiVersion) continue;
        const own = state.packages.find(
          (p) => p.group === h.group && p.storage && p.armApiVersion === h.apiVersion,
        );
        for (const [property, typeName] of Object.entries(h.draws)) {
          const def = own?.types.get(typeName);
          if (def === undefined)
            throw new Error(
              `hook ${h.export} draws ${h.type}.${property} as ${typeName}, which no ${h.group} storage package at ${h.apiVersion} has`,
            );
          // Older versions may name the type differently (MySQL's 2021-05-01 `Identity_STATUS`): every type
          // of the package with a JSON property of that name draws it so, as its values reach the hook.
          for (const t of pkg.types.values()) {
            if (t.kind !== 'object' || !t.properties.some((p) => p.name === property && holdsJson(p.type)))
              continue;
            const properties = byType.get(t.name) ?? new Map<string, TypeDef>();
            properties.set(property, def);
            byType.set(t.name, properties);
          }
        }
      }
      return { byType };
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
          drawsOf,
        ),
      );
    for (const graph of need(state.graph, 'graph').kinds) {
      const lookup = (version: string) => {
        const pkg = state.packages.find((p) => p.group === graph.group && p.version === version);
        if (!pkg) throw new Error(`package ${graph.group}/${version} is not defined`);
        return pkg;
      };
      // A kind's hooks: those for its spec or status type, or for a type somewhere below them (a Machine
      // Learning AKS compute's properties), as the kind's storage package below the hook has it.
      const hooks = config.hooks.filter((h) => {
        if (h.group !== graph.group) return false;
        const pkg = lookup(graph.apiVersions[0] ?? '');
        const r = pkg.resources.find((x) => x.kind === graph.kind);
        if (r === undefined) return false;
        if (h.type === r.specType || h.type === r.statusType) return true;
        const below = [...graph.storageVersions]
          .map(lookup)
          .filter((p) => p.armApiVersion < h.apiVersion)
          .at(-1);
        return below !== undefined && pathsTo(below, graph.kind, (name) => name === h.type).length > 0;
      });
      addFile(
        state,
        `${graph.group}/tests/${graph.kind}.conversion.test.ts`,
        emitKindTests(
          graph,
          fullGroup(graph.group, config.groupSuffix),
          hooks,
          lookup,
          config.renames,
          config.removals,
          [...graph.apiVersions, ...graph.storageVersions].filter((v) =>
            config.removedVersions.some(
              (r) => r.group === graph.group && r.apiVersions.includes(lookup(v).armApiVersion),
            ),
          ),
        ),
      );
    }
  },
});
