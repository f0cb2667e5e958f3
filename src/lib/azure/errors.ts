import { AsoError } from '../errors.ts';

/** No credential could be found for `--credential operator`: says where it looked and what to do instead. */
export class CredentialNotFound extends AsoError {
  constructor(lookedAt: string[]) {
    super(
      'notFound',
      `no Azure credential found (looked at: ${lookedAt.join(', ')})`,
      'use --credential local to use your own login (az login)',
    );
  }
}

/** A credential secret the user may not read; names it (never its values). */
export class CredentialForbidden extends AsoError {
  constructor(namespace: string, name: string) {
    super(
      'forbidden',
      `reading secret ${namespace}/${name} is forbidden`,
      'use --credential local to use your own login (az login), and --subscription',
    );
  }
}

/** Why retrying one ARM request stopped. */
export type GaveUpReason = 'deadline' | 'attempts' | 'outage';

/** What {@link ArmGaveUp} reports: the resource, how long and how often it was tried, and ARM's last answer. */
export interface GaveUpDetails {
  resource: string;
  attempts: number;
  elapsedMs: number;
  status: number | undefined;
  code: string | undefined;
  why: GaveUpReason;
}

/**
 * ARM kept throttling (429) or failing (5xx) one request past the retry budget. It names the resource and
 * ARM's last answer so the user can tell an outage from throttling; adopt-check reports the resource as
 * `unknown` (exit 10) rather than guessing whether it exists.
 */
export class ArmGaveUp extends AsoError {
  readonly details: GaveUpDetails;

  constructor(details: GaveUpDetails) {
    const answer =
      details.status === undefined
        ? details.code
          ? `a network error (${details.code})`
          : 'nothing'
        : `${details.status}${details.code ? ` ${details.code}` : ''}`;
    const why = {
      deadline: 'the retry deadline would pass before the next try',
      attempts: 'no attempts left',
      outage: 'another request already gave up on this ARM endpoint',
    }[details.why];
    super(
      'partial',
      `gave up reading ${details.resource} after ${details.attempts} attempt${details.attempts === 1 ? '' : 's'} in ${(details.elapsedMs / 1000).toFixed(1)}s: ARM answered ${answer}; ${why}`,
      'try again later, or raise --retry-deadline',
    );
    this.details = details;
  }
}
