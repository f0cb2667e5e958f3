import { ConversionError } from '../../conversion/errors.ts';
import { AsoError } from '../../errors.ts';

/**
 * A conversion that would lose data: a value the target version cannot hold. Refused unless
 * `--allow-loss`, and it names where the value is (file, document, object) and its property path, so the
 * user can move the value by hand or accept the loss knowingly.
 */
export class ConversionLoss extends ConversionError {
  readonly object: string;
  readonly properties: readonly string[];
  constructor(object: string, target: string, properties: readonly string[]) {
    super(
      `${object}: ${target} cannot hold ${properties.join(', ')}; converting would lose ${properties.length === 1 ? 'it' : 'them'}`,
      'move the value by hand, or rerun with --allow-loss to drop it',
    );
    this.object = object;
    this.properties = properties;
  }
}

/**
 * No version of the kind answers `--to` for this manifest: the prefix has no version, an exact version is
 * not one of the kind's, or (for a kind the catalog lacks) the target is not at the object's ARM date.
 */
export class NoManifestTarget extends ConversionError {
  constructor(object: string, reason: string) {
    super(`${object}: ${reason}`);
  }
}

/**
 * Objects of one run could not be converted: each is named (file, line, object, reason) rather than the
 * first alone, so one run shows everything to fix. Nothing is written, unless the run was told to keep
 * going (`written`): then the rest was, with these objects left as they were. The exit code is the first
 * failure's, in input order, so a run with one failure exits as that failure always did.
 */
export class ManifestObjectsFailed extends AsoError {
  readonly failures: readonly AsoError[];
  constructor(files: readonly string[], failures: readonly [AsoError, ...AsoError[]], written = false) {
    const [first] = failures;
    const hints = [...new Set(failures.flatMap((f) => (f.hint ? [f.hint] : [])))];
    const count = failures.length === 1 ? '1 object' : `${failures.length} objects`;
    const outcome = written ? 'left as they were; the rest was converted' : 'nothing was written';
    super(
      first.exit,
      `${files.join(', ')}: ${count} could not be converted; ${outcome}:\n${failures.map((f) => `  ${f.message}`).join('\n')}`,
      hints.length > 0 ? hints.join('; ') : undefined,
    );
    this.failures = failures;
  }
}
