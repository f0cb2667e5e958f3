import { transformSelected } from '../model/selections.ts';
import { configMapReference } from '../model/shared-types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Issue 8, item 3: beside each property the config lists, `<name>FromConfig`, a key of a config map the
 * operator reads the value from instead (as the operator's CRDs have it). The ARM body sends the value
 * as `<name>` once the caller has read the config map (`armAs`).
 */
export const addConfigMapReferences = stage({
  id: 'addConfigMapReferences',
  description: 'Add configured *FromConfig config map references',
  needs: ['buildApiPackages'],
  run: (state) => {
    const config = need(state.config, 'config');
    state.packages = transformSelected(
      state.packages,
      config.transformations.fromConfig,
      'transformations.fromConfig',
      (property) => {
        if (property.type.kind !== 'primitive' || property.type.primitive !== 'string')
          throw new Error(`${property.name} is not a string: a config map cannot hold it`);
        return {
          properties: [
            property,
            {
              name: `${property.name}FromConfig`,
              type: { kind: 'object', name: configMapReference.name },
              required: false,
              description: property.description,
              arm: property.arm,
              armPath: property.armPath,
              armAs: { how: 'fromConfig', name: property.name },
            },
          ],
          types: [configMapReference],
        };
      },
    );
  },
});
