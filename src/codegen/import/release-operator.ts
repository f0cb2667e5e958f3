import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReleaseOperator } from '../../lib/upgrade/release-types.ts';

/** Where the operator's controller wires its reconcilers, relative to the module's root. */
const setupFile = join('cmd', 'controller', 'app', 'setup.go');
/** The package of the reconciler that drops deprecated versions from a CRD's `status.storedVersions`. */
const migrationPackage = join('internal', 'reconcilers', 'migration', 'crd');

/**
 * What the operator of one release does by itself after an upgrade, read from its Go module (`moduleDir`):
 * whether its controller registers the CRD migration reconciler, which, when the operator manages its CRDs
 * (`--crd-management auto`), waits until each object of a CRD has been reconciled by this release (so it is
 * stored at the current storage version) and then removes the older versions from `status.storedVersions`.
 * Both the package and its registration behind the `auto` mode must be there; a module without setup.go is
 * not an operator module and is refused, so that a broken download never reads as "does nothing".
 */
export function releaseOperatorIn(moduleDir: string): ReleaseOperator {
  const setup = join(moduleDir, setupFile);
  if (!existsSync(setup)) throw new Error(`${moduleDir}: no ${setupFile}; is it the operator's Go module?`);
  const source = readFileSync(setup, 'utf8');
  const registered =
    /CRDManagementMode\s*==\s*"auto"/.test(source) &&
    source.includes('GetAllDeprecatedStorageVersions') &&
    /crd\.NewReconciler\(/.test(source);
  return { cleansStoredVersions: registered && existsSync(join(moduleDir, migrationPackage)) };
}
