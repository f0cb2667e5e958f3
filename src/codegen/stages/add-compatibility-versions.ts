import { versionName } from '../model/versions.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/**
 * Seed 003, option 3b: clones the GA package of each configured group and ARM API version under the
 * `v1beta` and `v1alpha1api` prefixes, so that objects written by alpha and beta releases keep working.
 * Also clones an ARM API version the operator publishes under both `v1api` and plain `v` (`published`).
 * Storage variants and conversions for the clones come from the later stages like any other package.
 */
export const addCompatibilityVersions = stage({
  id: 'addCompatibilityVersions',
  description: 'Add v1beta and v1alpha1api compatibility packages (seed 003, option 3b)',
  needs: [
    'buildApiPackages',
    'addArmReferences',
    'addSecretReferences',
    'addConfigMapReferences',
    'addIdentityReferences',
    'addOperatorSpec',
  ],
  run: (state) => {
    const config = need(state.config, 'config');
    for (const entry of config.published) {
      for (const apiVersion of entry.apiVersions) {
        const [base, ...others] = entry.prefixes;
        const built = state.packages.find(
          (p) => p.group === entry.group && p.armApiVersion === apiVersion && p.prefix === base,
        );
        if (!built) throw new Error(`published: no schemas for group ${entry.group} at ${apiVersion}`);
        for (const prefix of others) {
          state.packages.push({
            ...built,
            prefix,
            version: versionName(config.prefixes, prefix, apiVersion),
          });
        }
      }
    }
    for (const entry of config.compatibility) {
      for (const apiVersion of entry.apiVersions) {
        const ga = state.packages.find(
          (p) => p.group === entry.group && p.armApiVersion === apiVersion && p.prefix === 'ga',
        );
        if (!ga) throw new Error(`compatibility: no schemas for group ${entry.group} at ${apiVersion}`);
        for (const prefix of entry.prefixes) {
          state.packages.push({ ...ga, prefix, version: versionName(config.prefixes, prefix, apiVersion) });
        }
      }
    }
  },
});
