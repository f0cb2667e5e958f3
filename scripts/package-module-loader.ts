import { bundledModule } from './package-bundled-modules.ts';

// Replaces @oclif/core's lib/module-loader.js in the bundle (see package-bundle.ts). oclif loads commands
// and the help class by path with import() or require(); a single executable has no such files, so the
// same four functions answer from the modules the entry registered.

/** oclif's `load(config, path)`: the module itself. */
export async function load(_config: unknown, modulePath: string): Promise<object> {
  return bundledModule(modulePath);
}

/** oclif's `loadWithData(config, path)`: the module and where it came from. */
export async function loadWithData(
  _config: unknown,
  modulePath: string,
): Promise<{ filePath: string; isESM: boolean; module: object }> {
  return { filePath: modulePath, isESM: false, module: bundledModule(modulePath) };
}

/** oclif's `loadWithDataFromManifest`: only used for file-based command discovery, never in the bundle. */
export async function loadWithDataFromManifest(
  cached: { id: string },
  modulePath: string,
): Promise<{ filePath: string; isESM: boolean; module: object }> {
  return { filePath: modulePath, isESM: false, module: bundledModule(`${modulePath}/${cached.id}`) };
}

/** oclif's `isPathModule`: nothing in the bundle is loaded as an ES module file. */
export function isPathModule(_filePath: string): boolean {
  return false;
}
