import { emitTypes as emitPackageTypes } from '../emit/types-emitter.ts';
import { stage } from '../stage.ts';
import { addFile } from '../state.ts';

/** Writes `types.ts` for every API package and storage variant. */
export const emitTypes = stage({
  id: 'emitTypes',
  description: 'Emit types per group and version',
  needs: ['addStorageVariants'],
  run: (state) => {
    for (const pkg of state.packages)
      addFile(state, `${pkg.group}/${pkg.version}/types.ts`, emitPackageTypes(pkg));
  },
});
