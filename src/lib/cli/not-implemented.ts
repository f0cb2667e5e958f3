import { NotImplemented } from '../errors.ts';

/** Raised by a registered command whose issue has not landed: a clear error, never fake output. */
export function notImplemented(command: string): never {
  throw new NotImplemented(command);
}
