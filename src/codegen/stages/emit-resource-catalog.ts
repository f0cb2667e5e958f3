import { emitCatalog } from '../emit/catalog-emitter.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/** Writes `catalog.ts`. */
export const emitResourceCatalog = stage({
  id: 'emitResourceCatalog',
  description: 'Emit the resource catalog',
  needs: ['buildConversionGraph', 'loadKubernetesKinds'],
  run: (state) => {
    addFile(
      state,
      'catalog.ts',
      emitCatalog(
        need(state.graph, 'graph'),
        state.packages,
        need(state.config, 'config').groupSuffix,
        need(state.kubernetesKinds, 'kubernetesKinds'),
      ),
    );
  },
});
