import { Command, Errors } from '@oclif/core';
import { AsoError, UsageError } from '../errors.ts';
import { exitCodes } from '../exit-codes.ts';
import { printable } from '../render/printable.ts';
import { outputDrained } from './output-drained.ts';
import { outputBesideJson } from './output-flags.ts';
import { parseErrorText } from './usage-errors.ts';

/**
 * The base of every kubectl-aso command: it turns any error into one line on stderr and the exit code
 * from the table, so that no user ever sees a stack trace (set KUBECTL_ASO_DEBUG=1 to get one).
 */
export abstract class AsoCommand extends Command {
  protected override async init(): Promise<void> {
    await super.init();
    const format = (this.ctor as { enableJsonFlag?: boolean }).enableJsonFlag
      ? outputBesideJson(this.argv)
      : undefined;
    if (format !== undefined)
      throw new UsageError(`--json and -o ${format} ask for different output: give one`);
  }

  /**
   * Exits with `code` once stdout and stderr have taken everything written before: exiting ends the process
   * at once, and a large report or a long list of warnings still queued for a pipe would be cut short.
   */
  protected async exitAfterOutput(code: number): Promise<never> {
    await outputDrained();
    return this.exit(code);
  }

  protected override async catch(
    error: Error & { exitCode?: number; oclif?: { exit?: number } },
  ): Promise<never> {
    if (error instanceof Errors.ExitError) throw error;
    const debug = process.env.KUBECTL_ASO_DEBUG === '1';
    if (error instanceof AsoError) {
      // Messages name files and objects from the user's input: each line made printable.
      process.stderr.write(
        `error: ${printableLines(error.message)}\n${error.hint ? `hint: ${printableLines(error.hint)}\n` : ''}`,
      );
      if (debug) process.stderr.write(`${error.stack}\n`);
      return this.exitAfterOutput(exitCodes[error.exit].code);
    }
    // Anything oclif's parser throws before parsing is done is a usage error, whatever its class: some
    // (a flag missing its value, given twice, a bad integer) are plain CLIErrors.
    if (isParseError(error) || (!this.parsed && error instanceof Errors.CLIError)) {
      process.stderr.write(
        `error: ${parseErrorText(error.message)}\nhint: see kubectl aso ${this.id ?? ''} --help\n`,
      );
      return this.exitAfterOutput(exitCodes.usage.code);
    }
    process.stderr.write(
      `error: ${error.message}\n(this is a bug in kubectl-aso; rerun with KUBECTL_ASO_DEBUG=1 and report it)\n`,
    );
    if (debug) process.stderr.write(`${error.stack}\n`);
    return this.exitAfterOutput(exitCodes.internal.code);
  }
}

/** oclif's flag and argument errors carry the parser's input as `parse`; those are usage errors. */
function isParseError(error: Error): boolean {
  return error instanceof Errors.CLIError && 'parse' in error;
}

/** Text made {@link printable} line by line, so a message laid out on several lines keeps its lines. */
function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}
