import { packageSubset } from '../model/package-subset.ts';
import { servedPrefixes, unionOfPrefixes } from '../model/served-prefixes.ts';
import type { PackageDef, ResourceDef } from '../model/types.ts';
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
    for (const entry of config.published)
      for (const apiVersion of entry.apiVersions)
        if (!state.packages.some((p) => p.group === entry.group && p.armApiVersion === apiVersion))
          throw new Error(`published: no schemas for group ${entry.group} at ${apiVersion}`);
    // Each package was built under the first prefix of its kinds; each other one is a clone, and every
    // package holds only the kinds served under its own prefix.
    const clones: PackageDef[] = [];
    state.packages.forEach((pkg, i) => {
      const prefixesOf = (r: ResourceDef) => servedPrefixes(config, pkg.group, pkg.armApiVersion, r.armType);
      const [base, ...others] = unionOfPrefixes(pkg.resources.map(prefixesOf));
      if (base !== pkg.prefix)
        throw new Error(`${pkg.group}/${pkg.version}: built under ${pkg.prefix}, not ${base}`);
      state.packages[i] = packageSubset(pkg, (r) => prefixesOf(r).includes(base));
      for (const prefix of others) {
        const named = { ...pkg, prefix, version: versionName(config.prefixes, prefix, pkg.armApiVersion) };
        clones.push(packageSubset(named, (r) => prefixesOf(r).includes(prefix)));
      }
    });
    state.packages.push(...clones);
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
