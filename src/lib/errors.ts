import type { ExitCodeName } from './exit-codes.ts';

/**
 * The base of every error kubectl-aso raises on purpose. Each subclass names its exit code, so that one
 * mapping at the top turns any of them into a message and a code, never a stack trace.
 */
export class AsoError extends Error {
  readonly exit: ExitCodeName;
  /** A hint printed under the message: what the user can do about it. */
  readonly hint: string | undefined;

  constructor(exit: ExitCodeName, message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.exit = exit;
    this.hint = hint;
  }
}

/** A command that is registered but whose issue has not landed yet. */
export class NotImplemented extends AsoError {
  constructor(command: string) {
    super('notImplemented', `kubectl aso ${command} is not implemented yet`);
  }
}

/** Flags or arguments that do not fit together or cannot be parsed. */
export class UsageError extends AsoError {
  constructor(message: string) {
    super('usage', message, 'see --help');
  }
}

/** Input the user gave (a file, a manifest, an object) that cannot be used; names where it is. */
export class InvalidInput extends AsoError {
  readonly where: string;
  constructor(where: string, problem: string) {
    super('invalidInput', `${where}: ${problem}`);
    this.where = where;
  }
}

/**
 * `--wait` on a selection that matches no object: waiting for "all of nothing" to be Ready would succeed
 * at once and hide a typo in `-n`, `-l` or `--kind`, so it is an error, as in `kubectl wait`. The message
 * names the selection so the user can see what matched nothing.
 */
export class NothingSelected extends AsoError {
  constructor(selection: string) {
    super(
      'nothingSelected',
      `--wait: no matching resources found (${selection})`,
      'check -n/-A, -l and --kind, or apply the resources first',
    );
  }
}
