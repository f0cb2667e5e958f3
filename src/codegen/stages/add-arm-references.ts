import { referenceName, referencesName } from '../model/names.ts';
import { transformSelected } from '../model/selections.ts';
import { resourceReference, wellKnownResourceReference } from '../model/shared-types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Issue 8, item 3: the ARM ID properties the config lists become `<name>Reference` on the spec side, as the
 * operator's CRDs have them (an ARM ID, or the group, kind and name of an object holding one); a list of
 * ARM IDs becomes a list of references (`scopes` -> `scopesReferences`). The status keeps the IDs ARM
 * reports. The ARM body turns the reference back into `<name>` (`armAs`).
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
        const element = property.type.kind === 'array' ? property.type.element : undefined;
        if (element?.kind === 'primitive' && element.primitive === 'string')
          return {
            properties: [
              {
                ...property,
                name: referencesName(property.name),
                type: { kind: 'array', element: { kind: 'object', name: type.name } },
                pattern: undefined,
                format: undefined,
                armAs: { how: 'references', name: property.name },
              },
            ],
            types: [type],
          };
        if (property.type.kind !== 'primitive' || property.type.primitive !== 'string')
          throw new Error(`${property.name} is neither a string nor a list of strings: not an ARM ID`);
        // `arm+compat`: the ID string stays, before the reference, which ARM gets instead when both are set.
        const compat = 'compat' in selection && selection.compat;
        return {
          properties: [
            ...(compat ? [property] : []),
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
