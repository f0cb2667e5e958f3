import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The Azure libraries the product calls: the credential chain and the ARM resources client. */
export interface AzureLibraries {
  identity: typeof import('@azure/identity');
  armResources: typeof import('@azure/arm-resources');
}

/** Where `npm run build` writes the libraries as one bundle, from this module in dist/src/lib/azure. */
export const azureBundleUrl = '../../../vendor/azure.cjs';

let loading: Promise<AzureLibraries> | undefined;

/**
 * The Azure libraries, loaded once per process and only by the commands that reach Azure. After
 * `npm run build` they come from `dist/vendor/azure.cjs`: the same installed packages, bundled at build
 * time, so that a run compiles one file instead of resolving and loading some 300 modules (most of
 * adopt-check's fixed cost). From the sources, and in the single executable (whose own bundle stubs these
 * packages with its lazy asset), the packages are imported as they are.
 */
export function azureLibraries(): Promise<AzureLibraries> {
  loading ??= load();
  return loading;
}

async function load(): Promise<AzureLibraries> {
  const bundle = builtBundlePath();
  if (bundle) return createRequire(bundle)(bundle) as AzureLibraries;
  const [identity, armResources] = await Promise.all([
    import('@azure/identity'),
    import('@azure/arm-resources'),
  ]);
  return { identity, armResources };
}

function builtBundlePath(): string | undefined {
  // The executable's bundle is CommonJS: it has no module URL, and takes the packages' path.
  if (typeof import.meta.url !== 'string' || !import.meta.url.startsWith('file:')) return undefined;
  const path = fileURLToPath(new URL(azureBundleUrl, import.meta.url));
  return existsSync(path) ? path : undefined;
}
