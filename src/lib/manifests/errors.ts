import { InvalidInput } from '../errors.ts';

/**
 * A manifest that cannot be read: malformed YAML or JSON, or an object without apiVersion/kind. It names
 * the file (and the line when the parser knows it) so the user can fix it without a stack trace.
 */
export class ManifestError extends InvalidInput {
  constructor(file: string, problem: string, line?: number) {
    super(line === undefined ? file : `${file}:${line}`, problem);
  }
}
