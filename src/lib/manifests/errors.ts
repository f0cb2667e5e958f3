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

/**
 * A `-f` path the system would not read (missing, no permission, a dangling symlink, a FIFO in a folder):
 * the operating system's error code is kept so tests and callers can tell the cases apart, and the
 * message says it in words instead of a stack trace.
 */
export class UnreadableManifest extends ManifestError {
  readonly code: string;
  constructor(file: string, code: string, problem: string) {
    super(file, problem);
    this.code = code;
  }
}

/**
 * A symlinked folder under `-R` that leads back to a folder being walked: following it would never end,
 * so it is named rather than skipped, and the user decides whether the link belongs there.
 */
export class SymlinkLoop extends ManifestError {
  constructor(link: string, ancestor: string) {
    super(link, `symlink loop: it leads back to ${ancestor}, which -R is already walking`);
  }
}
