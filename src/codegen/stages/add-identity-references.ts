import { transformSelected } from '../model/selections.ts';
import { resourceReference, userAssignedIdentityDetails } from '../model/shared-types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Issue 8, item 3: the `userAssignedIdentities` maps the config lists (keyed by an identity's ARM ID) become
 * lists of identity references on the spec side, as the operator's CRDs have them; the status keeps ARM's
 * map. The ARM body turns the list back into the map, keyed by each reference's ARM ID (`armAs`).
 */
export const addIdentityReferences = stage({
  id: 'addIdentityReferences',
  description: 'Turn configured userAssignedIdentities maps into lists of references',
  needs: ['buildApiPackages'],
  run: (state) => {
    const config = need(state.config, 'config');
    state.packages = transformSelected(
      state.packages,
      config.transformations.userAssignedIdentities,
      'transformations.userAssignedIdentities',
      (property) => {
        if (property.type.kind !== 'map') throw new Error(`${property.name} is not a map keyed by ARM ID`);
        return {
          properties: [
            {
              ...property,
              type: { kind: 'array', element: { kind: 'object', name: userAssignedIdentityDetails.name } },
              armAs: { how: 'identities', name: property.name },
            },
          ],
          types: [resourceReference, userAssignedIdentityDetails],
        };
      },
    );
  },
});
