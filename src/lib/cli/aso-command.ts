import { Command, Errors } from '@oclif/core';
import { AsoError } from '../errors.ts';
import { exitCodes } from '../exit-codes.ts';
import { parseErrorText } from './usage-errors.ts';

/**
 * The base of every kubectl-aso command: it turns any error into one line on stderr and the exit code
 * from the table, so that no user ever sees a stack trace (set KUBECTL_ASO_DEBUG=1 to get one).
 */
export abstract class AsoCommand extends Command {
  /**
   * Exits with `code` once stdout has taken everything written before: exiting ends the process at once,
   * and a large report still queued for a pipe would be cut short.
   */
  protected async exitAfterOutput(code: number): Promise<never> {
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    return this.exit(code);
  }

  protected override async catch(
    error: Error & { exitCode?: number; oclif?: { exit?: number } },
  ): Promise<never> {
    if (error instanceof Errors.ExitError) throw error;
    const debug = process.env.KUBECTL_ASO_DEBUG === '1';
    if (error instanceof AsoError) {
      process.stderr.write(`error: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
      if (debug) process.stderr.write(`${error.stack}\n`);
      return this.exit(exitCodes[error.exit].code);
    }
    // Anything oclif's parser throws before parsing is done is a usage error, whatever its class: some
    // (a flag missing its value, given twice, a bad integer) are plain CLIErrors.
    if (isParseError(error) || (!this.parsed && error instanceof Errors.CLIError)) {
      process.stderr.write(
        `error: ${parseErrorText(error.message)}\nhint: see kubectl aso ${this.id ?? ''} --help\n`,
      );
      return this.exit(exitCodes.usage.code);
    }
    process.stderr.write(
      `error: ${error.message}\n(this is a bug in kubectl-aso; rerun with KUBECTL_ASO_DEBUG=1 and report it)\n`,
    );
    if (debug) process.stderr.write(`${error.stack}\n`);
    return this.exit(exitCodes.internal.code);
  }
}

/** oclif's flag and argument errors carry the parser's input as `parse`; those are usage errors. */
function isParseError(error: Error): boolean {
  return error instanceof Errors.CLIError && 'parse' in error;
}
