import { emitArm } from '../emit/arm-emitter.ts';
import { stage } from '../stage.ts';
import { addFile } from '../state.ts';

/** Writes the ARM payload layouts per API package. */
export const emitArmPayloads = stage({
  id: 'emitArmPayloads',
  description: 'Emit ARM payload layouts (spec -> ARM body, ARM response -> status)',
  needs: ['buildApiPackages', 'addCompatibilityVersions'],
  run: (state) => {
    for (const pkg of state.packages.filter((p) => !p.storage))
      addFile(state, `${pkg.group}/${pkg.version}/arm.ts`, emitArm(pkg));
  },
});
