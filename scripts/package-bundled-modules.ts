/**
 * The modules oclif would load from files (the command index, the help class), held in memory for the
 * single executable, which has no files beside it to load. The bundle's entry registers them before oclif
 * starts; `package-module-loader.ts`, which replaces oclif's module loader in the bundle, serves them.
 */
const modules = new Map<string, object>();

/** The name oclif's `commands.target` and `helpClass.target` use in the bundle's package.json. */
export const bundledTarget = 'kubectl-aso-bundle';

/** Makes `module` what oclif gets when it loads `name` (the last segment of a target path). */
export function registerBundledModule(name: string, module: object): void {
  modules.set(name, module);
}

/**
 * The registered module a target path names. Any other path is refused with the code Node gives a missing
 * module, so oclif reports it as it would a missing file.
 */
export function bundledModule(path: string): object {
  const name =
    path
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.[cm]?js$/, '') ?? '';
  const module = modules.get(name);
  if (module) return module;
  throw Object.assign(new Error(`${path} is not part of the kubectl-aso executable`), {
    code: 'MODULE_NOT_FOUND',
  });
}
