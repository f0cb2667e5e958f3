import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** What {@link bundleCli} wrote. */
export interface Bundle {
  file: string;
  bytes: number;
  commands: string[];
  /** The lazy bundles written beside the main one, by asset name (see {@link lazyPackages}). */
  lazy: Record<string, string>;
}

/**
 * Packages imported only lazily, and only by rare paths (adopt-check; kubeconfigs with exec plugins or
 * auth providers), that are most of the code: bundled apart, as SEA assets, so that the main script Node
 * compiles on every start is a tenth of the size. Packages that are always used together share a bundle.
 */
export const lazyPackages: Record<string, { asset: string; member: string }> = {
  '@kubernetes/client-node': { asset: 'kubernetes-client.cjs', member: 'kubernetesClient' },
  '@azure/identity': { asset: 'azure.cjs', member: 'identity' },
  '@azure/arm-resources': { asset: 'azure.cjs', member: 'armResources' },
};

/**
 * In the main bundle, each lazy package is a module that loads its asset when first required; esbuild
 * evaluates it only when the `import()` that names the package runs.
 */
function lazyPackageStubs(root: string): Plugin {
  const loader = join(root, 'scripts/package-lazy-asset.ts');
  return {
    name: 'lazy-packages',
    setup(builder) {
      builder.onResolve({ filter: /^@(kubernetes|azure)\// }, (args) =>
        lazyPackages[args.path] ? { path: args.path, namespace: 'lazy-package' } : undefined,
      );
      builder.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
        const lazy = lazyPackages[args.path];
        if (!lazy) return undefined;
        return {
          contents: `module.exports = require(${JSON.stringify(loader)}).lazyBundle(${JSON.stringify(lazy.asset)})[${JSON.stringify(lazy.member)}];`,
          loader: 'js',
          resolveDir: root,
        };
      });
    },
  };
}

/** Writes each lazy bundle (one per asset) beside `outfile`; returns their paths by asset name. */
async function bundleLazyPackages(root: string, outfile: string): Promise<Record<string, string>> {
  const written: Record<string, string> = {};
  for (const asset of new Set(Object.values(lazyPackages).map((lazy) => lazy.asset))) {
    const file = join(dirname(outfile), asset);
    await bundleLazyAsset(root, asset, file);
    written[asset] = file;
  }
  return written;
}

/**
 * Writes the lazy asset `asset` (see {@link lazyPackages}) to `file`: CommonJS whose exports hold each of
 * its packages under its member name. The npm install's build writes the Azure one too (dist/vendor).
 */
export async function bundleLazyAsset(root: string, asset: string, file: string): Promise<void> {
  const members = Object.entries(lazyPackages).filter(([, lazy]) => lazy.asset === asset);
  if (members.length === 0) throw new Error(`no lazy package is bundled as ${asset}`);
  await build({
    stdin: {
      contents: members
        .map(([name, { member }]) => `export * as ${member} from ${JSON.stringify(name)};`)
        .join('\n'),
      resolveDir: root,
      sourcefile: asset,
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    outfile: file,
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
}

/**
 * The source of the bundle's real entry: imports (lazily) every command in src/commands (so a new command is in the
 * executable without a list to keep up to date), embeds package.json, oclif's manifest (for completion) and
 * the pre-rendered help pages, and
 * calls `runBundled`. Written as CommonJS-compatible code: no top-level await.
 */
function entrySource(root: string): { source: string; commands: string[] } {
  const commandsDir = join(root, 'src/commands');
  const files = readdirSync(commandsDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
  const commands = files.map((file) => file.replace(/\.ts$/, ''));
  const helpDir = join(root, 'dist/help');
  const helpPages = Object.fromEntries(
    readdirSync(helpDir)
      .filter((file) => file.endsWith('.txt'))
      .map((file) => [file.replace(/\.txt$/, ''), readFileSync(join(helpDir, file), 'utf8')]),
  );
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  const kept = { name: pjson.name, version: pjson.version, oclif: pjson.oclif, engines: pjson.engines };
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, unknown>;
  };
  const source = [
    "import { runBundled } from './scripts/package-entry.ts';",
    'const loadCommands = async () => ({',
    ...files.map(
      (file, index) =>
        `  ${JSON.stringify(commands[index])}: (await import('./src/commands/${file}')).default,`,
    ),
    '});',
    `const pjson = ${JSON.stringify(kept)};`,
    `const helpPages = ${JSON.stringify(helpPages)};`,
    `const manifestCommands = ${JSON.stringify(manifest.commands)};`,
    'runBundled({ pjson, loadCommands, helpPages, manifestCommands }, process.argv.slice(2)).catch((error) => {',
    "  process.stderr.write('error: ' + (error?.message ?? error) + '\\n(this is a bug in kubectl-aso; please report it)\\n');",
    '  process.exitCode = 1;',
    '});',
  ].join('\n');
  return { source, commands };
}

/**
 * oclif loads modules by path (commands, the help class); in a bundle those are answered from memory by
 * `package-module-loader.ts`, which takes the place of oclif's own loader wherever oclif requires it.
 */
function oclifModuleLoader(root: string): Plugin {
  const replacement = join(root, 'scripts/package-module-loader.ts');
  return {
    name: 'oclif-module-loader',
    setup(builder) {
      builder.onResolve({ filter: /(^|\/)module-loader$/ }, (args) =>
        args.importer.includes(`${join('@oclif', 'core', 'lib')}`) ? { path: replacement } : undefined,
      );
    },
  };
}

/**
 * oclif requires the TypeScript compiler to read a tsconfig when it runs a plugin's sources in development;
 * the executable runs none, and the compiler would be 3.5 MB of the bundle that Node compiles on every
 * start. oclif already handles its absence.
 */
function withoutTypescript(): Plugin {
  return {
    name: 'without-typescript',
    setup(builder) {
      builder.onResolve({ filter: /^typescript$/ }, () => ({ path: 'typescript', namespace: 'absent' }));
      builder.onLoad({ filter: /.*/, namespace: 'absent' }, () => ({
        contents:
          "throw Object.assign(new Error('typescript is not part of kubectl-aso'), { code: 'MODULE_NOT_FOUND' });",
        loader: 'js',
      }));
    },
  };
}

/**
 * Bundles the plugin into one CommonJS file that needs nothing but Node's built-in modules: what a Node
 * single executable application can run (its main script cannot load files). Lazy `import()`s (yaml,
 * @kubernetes/client-node, @azure/*) stay lazy: esbuild wraps each such module so that it is evaluated
 * only when the import runs.
 */
export async function bundleCli(root: string, outfile: string): Promise<Bundle> {
  const { source, commands } = entrySource(root);
  const result = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: 'kubectl-aso-entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    outfile,
    minify: true,
    legalComments: 'none',
    // oclif reads its own version from its package.json; the bundle carries it.
    plugins: [oclifModuleLoader(root), withoutTypescript(), lazyPackageStubs(root)],
    logLevel: 'warning',
    metafile: true,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  const lazy = await bundleLazyPackages(root, outfile);
  return { file: relative(root, outfile), bytes, commands, lazy };
}
