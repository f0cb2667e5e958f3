import type { CredentialSettings } from '../azure/credential-settings.ts';
import { CredentialForbidden } from '../azure/errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { Forbidden, NotFound } from '../kube/errors.ts';

/** The operator's global secret and its default namespace. */
export const operatorSettingsSecret = 'aso-controller-settings';
/** The per-namespace credential secret the operator looks for. */
export const namespaceCredentialSecret = 'aso-credential';
/** The annotation that names an object's credential secret. */
export const credentialFromAnnotation = 'serviceoperator.azure.com/credential-from';

/** A secret's data, decoded; `undefined` when it does not exist. Values stay in memory, never printed. */
export type SecretData = Record<string, string>;

/**
 * Reads one secret's data. A 404 is `undefined` (the operator falls through to the next place); a 403
 * is a clear error naming the secret, so the user can switch to `--credential local`.
 */
export async function readSecret(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<SecretData | undefined> {
  try {
    const secret = await client.request<{ data?: Record<string, string> }>({
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
      subject: { verb: 'get', resource: `secret ${name}`, namespace },
    });
    const data: SecretData = {};
    for (const [key, value] of Object.entries(secret.data ?? {}))
      data[key] = Buffer.from(value, 'base64').toString('utf8');
    return data;
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    if (error instanceof Forbidden) throw new CredentialForbidden(namespace, name);
    throw error;
  }
}

/** The annotations of a Namespace, or none when it does not exist yet (it may come from the same files). */
export async function namespaceAnnotations(
  client: KubeClient,
  namespace: string,
): Promise<Record<string, string> | undefined> {
  try {
    const object = await client.request<{ metadata?: { annotations?: Record<string, string> } }>({
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}`,
      subject: { verb: 'get', resource: `namespace ${namespace}` },
    });
    return object.metadata?.annotations ?? {};
  } catch (error) {
    if (error instanceof NotFound || error instanceof Forbidden) return undefined;
    throw error;
  }
}

/** Which secret a credential came from, for messages (never its values). */
export interface FoundCredential {
  where: string;
  settings: CredentialSettings;
}

/**
 * The credential the operator would use for an object: its `credential-from` secret, else `aso-credential`
 * in its namespace, else the global `aso-controller-settings`. Returns what it looked at when none exists.
 */
export async function credentialFor(
  client: KubeClient,
  namespace: string,
  annotations: Record<string, string> | undefined,
  global: SecretData | undefined,
  operatorNamespace: string,
): Promise<FoundCredential | { lookedAt: string[] }> {
  const lookedAt: string[] = [];
  const named = annotations?.[credentialFromAnnotation];
  for (const name of named ? [named, namespaceCredentialSecret] : [namespaceCredentialSecret]) {
    const data = await readSecret(client, namespace, name);
    lookedAt.push(`secret ${namespace}/${name}`);
    if (data) return { where: `${namespace}/${name}`, settings: data };
    if (named && name === named) break; // the operator does not fall back from a named secret
  }
  lookedAt.push(`secret ${operatorNamespace}/${operatorSettingsSecret}`);
  if (global?.AZURE_SUBSCRIPTION_ID || global?.AZURE_CLIENT_ID)
    return { where: `${operatorNamespace}/${operatorSettingsSecret}`, settings: global };
  return { lookedAt };
}
