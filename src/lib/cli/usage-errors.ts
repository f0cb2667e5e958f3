import { AsoError } from '../errors.ts';

/**
 * A first word that is no command (`kubectl aso statsu`), or an argument after a command that takes none.
 * oclif reports both as "command X not found" from outside any command, where the plugin's own error
 * mapping never sees it; kubectl's users expect kubectl's wording and a usage exit code.
 */
export class UnknownCommand extends AsoError {
  constructor(message: string, hint: string) {
    super('usage', message, hint);
  }
}

/** The edit distance between two words (insertions, deletions, substitutions), for suggestions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The command the user most likely meant: one the typed word starts, or is a prefix of, or is within two
 * edits of (as cobra suggests for kubectl's own commands). Undefined when none is close.
 */
export function closestCommand(typed: string, commandIds: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const scored = commandIds
    .map((id) => ({ id, score: id.startsWith(word) || word.startsWith(id) ? 0 : distance(word, id) }))
    .filter((candidate) => candidate.score <= 2)
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id));
  return scored[0]?.id;
}

/**
 * The usage error for oclif's top-level "command X not found" (X is the words joined with `:`), or
 * undefined for any other error. `commandIds` are the plugin's commands, for the suggestion.
 */
export function unknownCommandOf(error: unknown, commandIds: readonly string[]): UnknownCommand | undefined {
  const message = error instanceof Error ? error.message : '';
  const match = /^command (.+) not found$/.exec(message);
  if (!match?.[1]) return undefined;
  const [first = '', ...rest] = match[1].split(':');
  if (commandIds.includes(first) && rest.length > 0) {
    return new UnknownCommand(
      `kubectl aso ${first} takes no arguments, but was given "${rest.join(' ')}"`,
      `see kubectl aso ${first} --help`,
    );
  }
  if (first.startsWith('-')) {
    return new UnknownCommand(`unknown flag: ${first}`, 'see kubectl aso --help');
  }
  const closest = closestCommand(first, commandIds);
  return new UnknownCommand(
    `unknown command "${first}" for "kubectl aso"`,
    closest ? `did you mean "kubectl aso ${closest}"? (see kubectl aso --help)` : 'see kubectl aso --help',
  );
}

/** An error as the plugin prints every error it raises on purpose: `error:` and, when there is one, `hint:`. */
export function errorText(error: AsoError): string {
  return `error: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`;
}

/**
 * A parser error's message as one line: oclif spreads some over several lines (`Parsing --chunk-size` /
 * `Expected an integer but received: x` / `See more help with --help`); the hint says the last part.
 */
export function parseErrorText(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('See more help'))
    .join(': ');
}
