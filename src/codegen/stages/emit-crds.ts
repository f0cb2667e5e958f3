import { emitCrd } from '../emit/crd-emitter.ts';
import { fullGroup } from '../model/types.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/** Writes one CRD manifest per kind under `crds/`. */
export const emitCrds = stage({
  id: 'emitCrds',
  description: 'Emit CustomResourceDefinitions',
  needs: ['buildConversionGraph', 'addStorageVariants'],
  run: (state) => {
    const suffix = need(state.config, 'config').groupSuffix;
    for (const graph of need(state.graph, 'graph').kinds) {
      const lookup = (version: string) => {
        const pkg = state.packages.find((p) => p.group === graph.group && p.version === version);
        if (!pkg) throw new Error(`package ${graph.group}/${version} is not defined`);
        return pkg;
      };
      const group = fullGroup(graph.group, suffix);
      const resource = lookup(graph.hub).resources.find((r) => r.kind === graph.kind);
      if (!resource) throw new Error(`${graph.hub} has no ${graph.kind}`);
      addFile(state, `crds/${group}_${resource.plural}.yaml`, emitCrd(graph, group, lookup, resource.plural));
    }
  },
});
