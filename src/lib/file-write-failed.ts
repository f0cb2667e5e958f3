import { InvalidInput } from './errors.ts';

/**
 * A file that cannot be written as asked: its folder is read-only or missing, it belongs to someone whose
 * ownership the rewrite could not keep, it is a folder, the disk is full. Exit 9 naming the file, and
 * nothing was changed: every write of a run is staged before any file is replaced.
 */
export class FileWriteFailed extends InvalidInput {
  override readonly hint: string;
  constructor(
    where: string,
    problem: string,
    hint = 'no file was changed; fix the path or its permissions and rerun',
  ) {
    super(where, problem);
    this.hint = hint;
  }
}

/** What an error from the file system says, short (`EACCES: permission denied`), for a {@link FileWriteFailed}. */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  const text = message.replace(/^[A-Z]+: /, '').replace(/, [a-z]+ '.*'$/, '');
  return code ? `${code}: ${text}` : text;
}
