import { AsoError } from '../errors.ts';

/** The base of every conversion failure: all exit with code `conversion` (13). */
export class ConversionError extends AsoError {
  constructor(message: string, hint?: string) {
    super('conversion', message, hint);
  }
}

/** The object's API group is not one kubectl-aso can convert. */
export class UnknownGroup extends ConversionError {
  readonly group: string;
  constructor(group: string, known: readonly string[]) {
    super(`cannot convert: unknown API group "${group}"`, `known groups: ${known.join(', ')}`);
    this.group = group;
  }
}

/** The group is known but the kind is not. */
export class UnknownKind extends ConversionError {
  readonly group: string;
  readonly kind: string;
  constructor(group: string, kind: string, known: readonly string[]) {
    super(`cannot convert: unknown kind "${kind}" in group ${group}`, `known kinds: ${known.join(', ')}`);
    this.group = group;
    this.kind = kind;
  }
}

/** The kind is known but the (source or target) version is not one of its versions. */
export class UnknownVersion extends ConversionError {
  readonly kind: string;
  readonly version: string;
  constructor(group: string, kind: string, version: string, known: readonly string[]) {
    super(
      `cannot convert: ${kind}.${group} has no version "${version}"`,
      `known versions: ${known.join(', ')}`,
    );
    this.kind = kind;
    this.version = version;
  }
}

/** The input is not a Kubernetes object (no apiVersion/kind, or not an object at all). */
export class NotAnObject extends ConversionError {
  constructor(problem: string) {
    super(`cannot convert: ${problem}`);
  }
}

/** A value has the wrong JSON type for its property; names the value's JSON path and type, never the value. */
export class WrongType extends ConversionError {
  readonly path: string;
  readonly expected: string;
  constructor(path: string, expected: string, actual: unknown) {
    super(`${path}: expected ${expected}, found ${describe(actual)}`);
    this.path = path;
    this.expected = expected;
  }
}

/**
 * The JSON type of a value, never the value itself: the value may be a secret given inline where the
 * operator expects a secret reference (`administratorLoginPassword: hunter2`), and an error is printed,
 * logged and pasted into tickets. The path and the expected type say what to fix.
 */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a number with a fraction';
  if (typeof value === 'string') return `a string (${value.length} characters)`;
  return `a ${typeof value}`;
}
