import { compressCrdYaml, crdArchiveName } from '../../lib/crds/crd-archive.ts';
import { hashHeader } from '../emit/code.ts';
import { emitCrd, emitKubernetesKindCrd } from '../emit/crd-emitter.ts';
import { fullGroup } from '../model/types.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/**
 * Writes the CRDs under `crds/`, one compressed archive per API group (see crd-archive.ts for why): the
 * group's CRDs in the order of their operator file names, after one generated-marker line.
 */
export const emitCrds = stage({
  id: 'emitCrds',
  description: 'Emit CustomResourceDefinitions',
  needs: ['buildConversionGraph', 'addStorageVariants', 'loadKubernetesKinds'],
  run: (state) => {
    const suffix = need(state.config, 'config').groupSuffix;
    const byGroup = new Map<string, Array<{ fileName: string; yaml: string }>>();
    for (const graph of need(state.graph, 'graph').kinds) {
      const lookup = (version: string) => {
        const pkg = state.packages.find((p) => p.group === graph.group && p.version === version);
        if (!pkg) throw new Error(`package ${graph.group}/${version} is not defined`);
        return pkg;
      };
      const group = fullGroup(graph.group, suffix);
      const resource = lookup(graph.hub).resources.find((r) => r.kind === graph.kind);
      if (!resource) throw new Error(`${graph.hub} has no ${graph.kind}`);
      const yaml = emitCrd(graph, group, lookup, resource.plural);
      if (!yaml.startsWith(hashHeader()))
        throw new Error(`the CRD of ${graph.kind} lacks the generated marker`);
      const documents = byGroup.get(group) ?? [];
      documents.push({
        fileName: `${group}_${resource.plural}.yaml`,
        yaml: yaml.slice(hashHeader().length),
      });
      byGroup.set(group, documents);
    }
    for (const schema of need(state.kubernetesKinds, 'kubernetesKinds')) {
      const yaml = emitKubernetesKindCrd(schema);
      const documents = byGroup.get(schema.group) ?? [];
      documents.push({
        fileName: `${schema.group}_${schema.names.plural}.yaml`,
        yaml: yaml.slice(hashHeader().length),
      });
      byGroup.set(schema.group, documents);
    }
    for (const [group, documents] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      documents.sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
      const yaml = hashHeader() + documents.map((document) => document.yaml).join('');
      addFile(state, `crds/${crdArchiveName(group)}`, compressCrdYaml(yaml));
    }
  },
});
