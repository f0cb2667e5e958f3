/** What {@link withoutVerbosity} leaves for oclif, and the log level kubectl's `-v` asked for, if any. */
export interface VerbosityArgs {
  args: string[];
  /** The level from `-v N`, `-v=N`, `--v N` or `--v=N`; undefined when none was given. */
  verbosity: number | undefined;
  /** A `-v` without a level: kubectl refuses it, and so does the plugin, rather than guess. */
  error: string | undefined;
}

const level = /^\d+$/;

/**
 * Commands whose own `-v` is `--verbose` (their `--help` says so). For them a bare `-v`, one not followed
 * by a level, is theirs and is left in place; `-v=N`, `--v=N`, `--v N` and `-v N` stay kubectl's level.
 */
export const verboseShortFlagCommands: ReadonlySet<string> = new Set(['adopt-check']);

/**
 * Takes kubectl's log-verbosity flag out of the arguments, wherever it is. kubectl users pass `-v=6` out
 * of habit and kubectl passes global flags on; in kubectl `-v` is verbosity, never the version, so the
 * plugin accepts it (and for now ignores the level) instead of printing the version or refusing an
 * unknown flag. Arguments after `--` are left alone, and so is a bare `-v` of a command whose own `-v` is
 * `--verbose` (see {@link verboseShortFlagCommands}).
 */
export function withoutVerbosity(argv: readonly string[]): VerbosityArgs {
  const args: string[] = [];
  let verbosity: number | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--') {
      args.push(...argv.slice(index));
      break;
    }
    const joined = /^--?v=(.*)$/.exec(arg);
    if (joined) {
      if (!level.test(joined[1] ?? '')) return refused(arg);
      verbosity = Number(joined[1]);
      continue;
    }
    if (arg === '-v' || arg === '--v') {
      const next = argv[index + 1];
      if (arg === '-v' && !level.test(next ?? '') && verboseShortFlagCommands.has(commandOf(argv))) {
        args.push(arg);
        continue;
      }
      if (next === undefined || !level.test(next)) return refused(arg);
      verbosity = Number(next);
      index++;
      continue;
    }
    args.push(arg);
  }
  return { args, verbosity, error: undefined };
}

/** The command word: the first argument that is not a flag. */
function commandOf(argv: readonly string[]): string {
  return argv.find((arg) => !arg.startsWith('-')) ?? '';
}

function refused(arg: string): VerbosityArgs {
  return {
    args: [],
    verbosity: undefined,
    error: `${arg}: kubectl's log level needs a number (e.g. -v=6); for the version, run kubectl aso version`,
  };
}
