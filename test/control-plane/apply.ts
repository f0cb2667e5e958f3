import type { KubeClient } from '../../src/lib/kube/client.ts';
import { Conflict } from '../../src/lib/kube/errors.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../../src/lib/kube/paths.ts';

/** Where an object lives: its resource type and whether it is namespaced. */
export interface Placement extends ResourceType {
  namespaced: boolean;
}

const builtIn: Record<string, Placement> = {
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterroles',
    namespaced: false,
  },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterrolebindings',
    namespaced: false,
  },
  'rbac.authorization.k8s.io/v1/Role': {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'roles',
    namespaced: true,
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    namespaced: true,
  },
  'v1/Namespace': { group: '', version: 'v1', plural: 'namespaces', namespaced: false },
  'v1/Secret': { group: '', version: 'v1', plural: 'secrets', namespaced: true },
  'v1/ConfigMap': { group: '', version: 'v1', plural: 'configmaps', namespaced: true },
};

/** The placement of a built-in kind the control plane fixture applies; custom kinds must be given. */
export function builtInPlacement(object: KubeObject): Placement | undefined {
  return builtIn[`${object.apiVersion}/${object.kind}`];
}

/**
 * Creates the object, or replaces it when it exists (kubectl apply without the three-way merge): the
 * fixture's way of making the cluster hold exactly what a test or the demo says.
 */
export async function applyObject<T extends KubeObject>(
  client: KubeClient,
  object: T,
  placement?: Placement,
): Promise<T> {
  const where = placement ?? builtInPlacement(object);
  if (!where)
    throw new Error(`applyObject: no placement known for ${object.apiVersion}/${object.kind}; pass one`);
  const namespace = where.namespaced ? (object.metadata.namespace ?? 'default') : undefined;
  const subject = { verb: 'create', resource: resourceName(where), namespace };
  try {
    return await client.request<T>({
      method: 'POST',
      path: resourcePath(where, namespace),
      body: object,
      subject,
    });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
  }
  const path = resourcePath(where, namespace, object.metadata.name);
  const current = await client.request<KubeObject>({ path, subject: { ...subject, verb: 'get' } });
  const replacement = {
    ...object,
    metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion },
  };
  return client.request<T>({
    method: 'PUT',
    path,
    body: replacement,
    subject: { ...subject, verb: 'update' },
  });
}

/** Waits until a CRD reports Established, so objects of its kinds can be created right after. */
export async function waitForEstablished(
  client: KubeClient,
  crdName: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const type = builtIn['apiextensions.k8s.io/v1/CustomResourceDefinition']!;
  for (;;) {
    const crd = await client.request<{ status?: { conditions?: Array<{ type: string; status: string }> } }>({
      path: resourcePath(type, undefined, crdName),
      subject: { verb: 'get', resource: 'customresourcedefinitions' },
    });
    if (
      crd.status?.conditions?.some(
        (condition) => condition.type === 'Established' && condition.status === 'True',
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`CRD ${crdName} was not Established within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
