import { AsoError } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';

/** One thing a migration must be allowed to do. */
export interface NeededAccess {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
  /** Undefined: in every namespace (or cluster-scoped). */
  namespace?: string;
}

/** What the run may not do, all named at once, so the user can ask for it in one go. */
export class MissingPermissions extends AsoError {
  readonly missing: NeededAccess[];
  constructor(user: string, missing: NeededAccess[]) {
    super(
      'forbidden',
      `forbidden: ${user} may not ${missing.map(describeAccess).join('; ')}; nothing was written`,
      'ask for these permissions (an RBAC role on the ASO groups and customresourcedefinitions/status), or run with --dry-run',
    );
    this.missing = missing;
  }
}

/** `update flexibleservers.dbforpostgresql.azure.com in every namespace`, for messages. */
export function describeAccess(access: NeededAccess): string {
  const resource = `${access.resource}${access.group ? `.${access.group}` : ''}${access.subresource ? `/${access.subresource}` : ''}`;
  const scope = access.namespace
    ? ` in namespace ${access.namespace}`
    : access.name
      ? ''
      : ' in every namespace';
  return `${access.verb} ${resource}${access.name ? ` ${access.name}` : ''}${scope}`;
}

interface AccessReview {
  status?: { allowed?: boolean };
}

/**
 * Asks the API server, before the first write, whether this user may do everything the run will do (a
 * SelfSubjectAccessReview each: they write nothing, and every authenticated user may create them). A
 * migration that stops with a 403 half-way would leave work half done; this names what is missing first.
 */
export async function checkPermissions(client: KubeClient, needed: NeededAccess[]): Promise<void> {
  const answers = await Promise.all(
    needed.map((access) =>
      client.request<AccessReview>({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: {
              verb: access.verb,
              group: access.group,
              resource: access.resource,
              ...(access.subresource ? { subresource: access.subresource } : {}),
              ...(access.name ? { name: access.name } : {}),
              ...(access.namespace ? { namespace: access.namespace } : {}),
            },
          },
        },
        subject: { verb: 'create', resource: 'selfsubjectaccessreviews' },
      }),
    ),
  );
  const missing = needed.filter((_, index) => answers[index]?.status?.allowed !== true);
  if (missing.length > 0) throw new MissingPermissions(`context ${client.kubeconfig.contextName}`, missing);
}
