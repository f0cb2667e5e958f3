import type { KubeClient } from '../../../src/lib/kube/client.ts';

/** Helpers shared by the conversion tests on the real control plane (FlexibleServer objects). */
export const group = 'dbforpostgresql.azure.com';
const plural = 'flexibleservers';

/** The REST path of FlexibleServers at `version` in `namespace`, or of one of them. */
export function serverPath(version: string, namespace: string, name?: string): string {
  return `/apis/${group}/${version}/namespaces/${namespace}/${plural}${name ? `/${name}` : ''}`;
}

/** A FlexibleServer as the API server returns it, at the version asked for. */
export interface ServerObject {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec: Record<string, unknown>;
  [key: string]: unknown;
}

/** Creates a FlexibleServer at `version`. */
export async function createServer(
  client: KubeClient,
  version: string,
  namespace: string,
  object: Record<string, unknown>,
): Promise<void> {
  await client.request({
    method: 'POST',
    path: serverPath(version, namespace),
    body: object,
    subject: { verb: 'create', resource: plural },
  });
}

/** Reads a FlexibleServer at `version` (converted by the webhook when not the stored version). */
export async function readServer(
  client: KubeClient,
  version: string,
  namespace: string,
  name: string,
): Promise<ServerObject> {
  return client.request({
    path: serverPath(version, namespace, name),
    subject: { verb: 'get', resource: plural },
  });
}

/** Replaces a FlexibleServer at `version` (a PUT of the whole object, resourceVersion included). */
export async function replaceServer(
  client: KubeClient,
  version: string,
  namespace: string,
  object: ServerObject,
): Promise<ServerObject> {
  return client.request({
    method: 'PUT',
    path: serverPath(version, namespace, object.metadata.name as string),
    body: object,
    subject: { verb: 'update', resource: plural },
  });
}
