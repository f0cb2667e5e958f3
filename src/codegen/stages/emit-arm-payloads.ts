import { emitArm } from '../emit/arm-emitter.ts';
import { emitArmModules } from '../emit/arm-modules-emitter.ts';
import { stage } from '../stage.ts';
import { addFile } from '../state.ts';

/** Writes the ARM payload layouts per API package, and the index of loaders that reaches them. */
export const emitArmPayloads = stage({
  id: 'emitArmPayloads',
  description: 'Emit ARM payload layouts (spec -> ARM body, ARM response -> status)',
  needs: ['buildApiPackages', 'addCompatibilityVersions'],
  run: (state) => {
    const api = state.packages.filter((p) => !p.storage);
    for (const pkg of api) addFile(state, `${pkg.group}/${pkg.version}/arm.ts`, emitArm(pkg));
    addFile(state, 'arm-modules.ts', emitArmModules(api));
  },
});
