import type { ConversionPlan, Direction, ResourceConversion } from '../conversions/plan-types.ts';
import { ConversionPlanner, functionNameOf } from '../conversions/planner.ts';
import type { PackageDef, ResourceDef } from '../model/types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Plans every conversion of seed 000 for every kind: each spoke to and from its storage variant, each
 * storage variant to and from the next one towards the hub, recursively through the object types used.
 */
export const planConversions = stage({
  id: 'planConversions',
  description: 'Plan conversions spoke <-> storage and storage <-> next storage',
  needs: ['buildConversionGraph'],
  run: (state) => {
    const packages = new Map(state.packages.map((p) => [`${p.group}/${p.version}`, p]));
    const pkg = (group: string, version: string): PackageDef => {
      const found = packages.get(`${group}/${version}`);
      if (!found) throw new Error(`package ${group}/${version} is not defined`);
      return found;
    };
    const graphs = need(state.graph, 'graph').kinds;
    // Every kind's links at once: a type of one package may serve several kinds of its group.
    const linksInto = new Map<string, Set<string>>();
    for (const graph of graphs)
      for (const [from, to] of graph.next) {
        const key = `${graph.group}/${to}`;
        linksInto.set(key, (linksInto.get(key) ?? new Set()).add(from));
      }
    // A version only an earlier release served shapes no storage compat type: the chain between the versions
    // the current release serves stays as that release has it (see `removedVersions` in the config).
    const config = need(state.config, 'config');
    const removed = new Set(
      config.removedVersions.flatMap((r) => r.apiVersions.map((v) => `${r.group} ${v}`)),
    );
    const planner = new ConversionPlanner(config, (p) =>
      [...(linksInto.get(`${p.group}/${p.version}`) ?? [])]
        .sort()
        .map((v) => pkg(p.group, v))
        .filter((below) => !removed.has(`${below.group} ${below.armApiVersion}`)),
    );
    const resources: Array<ResourceConversion & { group: string; owner: string }> = [];
    const link = (
      group: string,
      kind: string,
      source: PackageDef,
      destination: PackageDef,
      direction: Direction,
    ): void => {
      const s = resourceOf(source, kind);
      const d = resourceOf(destination, kind);
      const owner = direction === 'toStorage' || direction === 'up' ? source : destination;
      const other = owner === source ? destination : source;
      resources.push({
        group,
        owner: owner.version,
        direction,
        kind,
        functionName: functionNameOf(direction, kind, other.version),
        sourceVersion: source.version,
        destVersion: destination.version,
        specFunction: planner.plan(source, destination, direction, s.specType, d.specType),
        statusFunction: planner.plan(source, destination, direction, s.statusType, d.statusType),
      });
    };
    for (const graph of graphs) {
      for (const version of graph.apiVersions) {
        const spoke = pkg(graph.group, version);
        const storage = pkg(graph.group, `${version}storage`);
        link(graph.group, graph.kind, spoke, storage, 'toStorage');
        link(graph.group, graph.kind, storage, spoke, 'fromStorage');
      }
      for (const [from, to] of [...graph.next.entries()].sort()) {
        link(graph.group, graph.kind, pkg(graph.group, from), pkg(graph.group, to), 'up');
        link(graph.group, graph.kind, pkg(graph.group, to), pkg(graph.group, from), 'down');
      }
    }
    const conversions = planner.all();
    state.plans = state.packages
      .map(
        (p): ConversionPlan => ({
          group: p.group,
          version: p.version,
          storage: p.storage,
          types: conversions
            .filter((c) => c.group === p.group && c.ownerVersion === p.version)
            .sort((a, b) => (a.functionName < b.functionName ? -1 : 1)),
          resources: resources
            .filter((r) => r.group === p.group && r.owner === p.version)
            .sort((a, b) => (a.functionName < b.functionName ? -1 : 1)),
        }),
      )
      .filter((plan) => plan.types.length > 0)
      .sort((a, b) => (`${a.group}/${a.version}` < `${b.group}/${b.version}` ? -1 : 1));
  },
});

function resourceOf(pkg: PackageDef, kind: string): ResourceDef {
  const found = pkg.resources.find((r) => r.kind === kind);
  if (!found) throw new Error(`${pkg.group}/${pkg.version} has no resource ${kind}`);
  return found;
}
