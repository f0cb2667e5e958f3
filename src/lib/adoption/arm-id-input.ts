import { UsageError } from '../errors.ts';
import { printable } from '../render/printable.ts';

/**
 * Checks on the parts of an ARM ID that come from the user (a subscription, an Azure name, an owner's
 * `armId`), so that none of them can change the path of the URL adopt-check GETs: `../../x?y#z` as a
 * subscription once made the GET read `/x?y` and answer "create" (safe) for every resource.
 */

const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a subscription ID as ARM requires it: a GUID, without braces or anything around it. */
export function isSubscriptionId(value: string): boolean {
  return guid.test(value);
}

/**
 * An Azure name as one path segment: `/`, `?`, `#` and `%` are percent-encoded, so the name stays one
 * segment and cannot start a query or fragment. `.` and `..` are refused (undefined): a URL resolves them
 * away whatever their encoding.
 */
export function armNameSegment(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return undefined;
  return encodeURIComponent(name);
}

/**
 * Why an ARM ID given by the user (an owner's `armId`, a recorded resource ID) cannot be appended to, or
 * undefined when it is a plain path: it must start with `/`, and have no empty, `.` or `..` segment and
 * no `?`, `#` or `\`, any of which would make the GET read another path than the ID names.
 */
export function armIdProblem(id: string): string | undefined {
  if (!id.startsWith('/')) return 'does not start with /';
  if (/[?#\\]/.test(id)) return 'holds ?, # or \\';
  const segments = id.replace(/\/+$/, '').split('/').slice(1);
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    return 'has an empty, . or .. segment';
  return undefined;
}

/** `--subscription` as given, refused as a usage error (before anything is read) unless it is a GUID. */
export function subscriptionFlag(input: string): string {
  if (!isSubscriptionId(input))
    throw new UsageError(
      `--subscription: "${printable(input)}" is not a subscription ID (a GUID, as ARM requires)`,
    );
  return input;
}
