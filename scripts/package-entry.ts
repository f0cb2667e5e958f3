import { dirname } from 'node:path';
import type { Command, Interfaces } from '@oclif/core';
import type { CompletionCommand } from '../src/lib/cli/completion.ts';
import { staticHelpPage } from '../src/lib/cli/static-help.ts';
import { errorText, unknownCommandOf } from '../src/lib/cli/usage-errors.ts';
import { withoutVerbosity } from '../src/lib/cli/verbosity.ts';
import { bundledTarget, registerBundledModule } from './package-bundled-modules.ts';

/** What the build hands the bundled executable: everything bin/kubectl-aso reads from files at run time. */
export interface BundledCli {
  /** package.json as built; its `oclif` section is pointed at the bundle here. */
  pjson: Interfaces.PJSON;
  /**
   * Every command class by id, found by the build in src/commands (oclif's explicit discovery). Loaded
   * only when oclif runs: the fast paths (help pages, `version --client`, completion) never evaluate them.
   */
  loadCommands: () => Promise<Record<string, Command.Class>>;
  /** The pre-rendered help pages (dist/help) by command id, `index` for the root page. */
  helpPages: Record<string, string>;
  /** The commands of oclif.manifest.json, which completion answers from without loading oclif. */
  manifestCommands: Record<string, CompletionCommand>;
}

/**
 * The single executable's main: what bin/kubectl-aso does (verbosity, `--version`, static help, the fast
 * `version --client`, then oclif), with oclif's file lookups answered from memory. oclif is told that its
 * commands and help class live in the module `kubectl-aso-bundle`, which is registered here.
 */
export async function runBundled(cli: BundledCli, argv: readonly string[]): Promise<void> {
  // `kubectl-aso __complete WORDS...`: what the archive's kubectl_complete-aso script runs.
  if (argv[0] === '__complete') {
    const { runCompletion } = await import('../src/lib/cli/completion-main.ts');
    await runCompletion(argv.slice(1), cli.manifestCommands);
    process.exit(0);
  }
  const { args: withoutV, error } = withoutVerbosity(argv);
  if (error) {
    process.stderr.write(`error: ${error}\nhint: see kubectl aso --help\n`);
    process.exitCode = 2;
    return;
  }
  const args = withoutV[0] === '--version' ? ['version', ...withoutV.slice(1)] : withoutV;
  const page = staticHelpPage(
    args,
    Object.keys(cli.helpPages).filter((id) => id !== 'index'),
    process.stdout.isTTY ? process.stdout.columns : undefined,
  );
  if (page && cli.helpPages[page] !== undefined) {
    process.stdout.write(cli.helpPages[page]);
    return;
  }
  if (args.length === 2 && args[0] === 'version' && args[1] === '--client') {
    const { collectVersions, versionText } = await import('../src/lib/version/versions.ts');
    const { report } = await collectVersions(String(cli.pjson.version), true, {});
    process.stdout.write(`${versionText(report)}\n`);
    return;
  }
  const [{ run, flush, handle }, { default: AsoHelp }, commands] = await Promise.all([
    import('@oclif/core'),
    import('../src/lib/render/help.ts'),
    cli.loadCommands(),
  ]);
  registerBundledModule(bundledTarget, { COMMANDS: commands, AsoHelp });
  const pjson: Interfaces.PJSON = {
    ...cli.pjson,
    oclif: {
      ...cli.pjson.oclif,
      commands: { strategy: 'explicit', target: `./${bundledTarget}`, identifier: 'COMMANDS' },
      helpClass: { target: `./${bundledTarget}`, identifier: 'AsoHelp' },
    },
  };
  try {
    await run(args, { root: dirname(process.execPath), pjson });
    await flush();
  } catch (caught) {
    const unknown = unknownCommandOf(caught, Object.keys(cli.manifestCommands));
    if (unknown) {
      process.stderr.write(errorText(unknown));
      process.exit(2);
    }
    await handle(caught as Error);
  }
}
