import { emitRegistry as emitTable } from '../emit/registry-emitter.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/** Writes `registry.ts`, the table behind the single convert-anything entry point. */
export const emitRegistry = stage({
  id: 'emitRegistry',
  description: 'Emit the conversion registry',
  needs: ['emitConversionPlans', 'buildConversionGraph', 'loadKubernetesKinds'],
  run: (state) => {
    addFile(
      state,
      'registry.ts',
      emitTable(
        need(state.graph, 'graph'),
        need(state.config, 'config').groupSuffix,
        need(state.kubernetesKinds, 'kubernetesKinds'),
      ),
    );
  },
});
