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
