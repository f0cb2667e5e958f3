import { statusName } from '../model/names.ts';
import { transformSelected, withoutProperty } from '../model/selections.ts';
import { secretMapReference, secretReference } from '../model/shared-types.ts';
import type { TypeDef } from '../model/types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Issue 8, item 3: the secrets the config lists (`administratorLoginPassword`) become references to a key
 * of a Kubernetes secret, as the operator's CRDs have them, and leave the status (ARM never returns them).
 * The ARM body kubectl-aso builds never carries them (`armAs`): the value is the operator's to read.
 */
export const addSecretReferences = stage({
  id: 'addSecretReferences',
  description: 'Turn configured secrets into secret references',
  needs: ['buildApiPackages'],
  run: (state) => {
    const config = need(state.config, 'config');
    const selections = config.transformations.secrets;
    state.packages = transformSelected(state.packages, selections, 'transformations.secrets', (property) => {
      if (property.type.kind !== 'primitive' || property.type.primitive !== 'string')
        throw new Error(`${property.name} is not a string: not a secret`);
      return {
        properties: [
          {
            ...property,
            type: { kind: 'object', name: secretReference.name },
            pattern: undefined,
            format: undefined,
            armAs: { how: 'secret', name: property.name },
          },
        ],
        types: [secretReference],
      };
    }).map((pkg) => {
      const chosen = selections.filter(
        (s) =>
          !pkg.storage &&
          s.group === pkg.group &&
          (s.apiVersions.length === 0 || s.apiVersions.includes(pkg.armApiVersion)),
      );
      if (chosen.length === 0) return pkg;
      const types = new Map<string, TypeDef>(pkg.types);
      for (const s of chosen)
        for (const name of s.properties) withoutProperty(types, statusTypeOf(s.type), name);
      return { ...pkg, types };
    });
    // A whole secret as a map of strings (API Management's logger credentials): the spec names the secret,
    // the status keeps ARM's map, as the operator's CRDs have it; the ARM body never carries it.
    state.packages = transformSelected(
      state.packages,
      config.transformations.secretMaps,
      'transformations.secretMaps',
      (property) => {
        const value = property.type.kind === 'map' ? property.type.value : undefined;
        if (value?.kind !== 'primitive' || value.primitive !== 'string')
          throw new Error(`${property.name} is not a map of strings: not a secret map`);
        return {
          properties: [
            {
              ...property,
              type: { kind: 'object', name: secretMapReference.name },
              armAs: { how: 'secret', name: property.name },
            },
          ],
          types: [secretMapReference],
        };
      },
    );
  },
});

/** The status counterpart of a spec-side type: `FlexibleServer_Spec` -> `FlexibleServer_STATUS`. */
function statusTypeOf(specType: string): string {
  return specType.endsWith('_Spec') ? `${specType.slice(0, -'_Spec'.length)}_STATUS` : statusName(specType);
}
