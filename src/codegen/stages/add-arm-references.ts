import { referenceName } from '../model/names.ts';
import { transformSelected } from '../model/selections.ts';
import { resourceReference, wellKnownResourceReference } from '../model/shared-types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Issue 8, item 3: the ARM ID properties the config lists become `<name>Reference` on the spec side, as the
 * operator's CRDs have them (an ARM ID, or the group, kind and name of an object holding one); the status
 * keeps the ID ARM reports. The ARM body turns the reference back into `<name>` (`armAs`).
 */
export const addArmReferences = stage({
  id: 'addArmReferences',
  description: 'Turn configured ARM ID properties into resource references',
  needs: ['buildApiPackages'],
  run: (state) => {
    const config = need(state.config, 'config');
    state.packages = transformSelected(
      state.packages,
      config.transformations.armReferences,
      'transformations.armReferences',
      (property, _pkg, _type, selection) => {
        const type =
          'wellKnown' in selection && selection.wellKnown ? wellKnownResourceReference : resourceReference;
        if (property.type.kind !== 'primitive' || property.type.primitive !== 'string')
          throw new Error(`${property.name} is not a string: not an ARM ID`);
        return {
          properties: [
            {
              ...property,
              name: referenceName(property.name),
              type: { kind: 'object', name: type.name },
              pattern: undefined,
              format: undefined,
              armAs: { how: 'reference', name: property.name },
            },
          ],
          types: [type],
        };
      },
    );
  },
});
