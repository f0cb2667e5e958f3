import { AsoError } from '../errors.ts';
import type { ReleaseCatalog, ReleaseHop } from './release-types.ts';

/**
 * A release the catalog does not hold, named with the releases it does, so that the user can pick one
 * instead of guessing which spelling is wanted.
 */
export class UnknownRelease extends AsoError {
  readonly release: string;
  constructor(release: string, known: readonly string[], role: string) {
    super(
      'usage',
      `${role} release ${release} is not one kubectl-aso knows`,
      `known releases: ${known.join(', ')}`,
    );
    this.release = release;
  }
}

/** A target release that is not newer than the one the check starts from. */
export class NotAnUpgrade extends AsoError {
  constructor(from: string, to: string) {
    super('usage', `--to ${to} is not newer than ${from}: an upgrade check goes to a newer release`);
  }
}

/** `2.20.0`, `v2.20` or `v2.20.0` as the catalog spells releases (`v2.20.0`). */
export function releaseName(text: string): string {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (match === null) return text;
  return `v${match[1]}.${match[2]}.${match[3] ?? '0'}`;
}

/**
 * The hops from release `from` to release `to`: one per pair of consecutive releases the catalog knows in
 * between. The operator is upgraded one minor release at a time; the catalog holds only the releases the
 * Go module proxy serves, so a hop may span releases it does not hold (v2.18.0 -> v2.20.0 spans v2.19),
 * whose changes the hop then carries together.
 */
export function hopsBetween(catalog: ReleaseCatalog, from: string, to: string): ReleaseHop[] {
  const start = catalog.releases.indexOf(releaseName(from));
  const end = catalog.releases.indexOf(releaseName(to));
  if (start < 0) throw new UnknownRelease(from, catalog.releases, 'the installed');
  if (end < 0) throw new UnknownRelease(to, catalog.releases, 'the target');
  if (end <= start) throw new NotAnUpgrade(releaseName(from), releaseName(to));
  return catalog.hops.slice(start, end);
}
