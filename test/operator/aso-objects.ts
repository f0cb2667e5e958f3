/**
 * The ASO objects the operator tests create, as a user writes them (at the real v2.20.0 API versions),
 * and the operator's Ready condition read back from the API server exactly as it wrote it.
 */
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { NotFound } from '../../src/lib/kube/errors.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { applyObject, type Placement } from '../control-plane/apply.ts';
import { waitUntil } from '../control-plane/processes.ts';

/** ResourceGroup at the version v2.20.0 serves it. */
export const resourceGroupType: Placement = {
  group: 'resources.azure.com',
  version: 'v1api20200601',
  plural: 'resourcegroups',
  namespaced: true,
};

/** StorageAccount at a GA version v2.20.0 serves: a child kind, owned by a ResourceGroup. */
export const storageAccountType: Placement = {
  group: 'storage.azure.com',
  version: 'v1api20230101',
  plural: 'storageaccounts',
  namespaced: true,
};

/** UserAssignedIdentity at a version v2.20.0 serves: a small child kind, owned by a ResourceGroup. */
export const userAssignedIdentityType: Placement = {
  group: 'managedidentity.azure.com',
  version: 'v1api20230131',
  plural: 'userassignedidentities',
  namespaced: true,
};

/** A condition as the operator writes it (`genruntime/conditions.Condition`). */
export interface OperatorCondition {
  type: string;
  status: string;
  severity?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/** What the tests read of an ASO object. */
export interface AsoObject extends KubeObject {
  metadata: KubeObject['metadata'] & {
    generation?: number;
    deletionTimestamp?: string;
    finalizers?: string[];
  };
  status?: { conditions?: OperatorCondition[] };
}

/** A ResourceGroup in `namespace`; `annotations` e.g. a reconcile policy, `tags` end up in the ARM body. */
export function resourceGroup(
  namespace: string,
  name: string,
  extra: { annotations?: Record<string, string>; tags?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: `${resourceGroupType.group}/${resourceGroupType.version}`,
    kind: 'ResourceGroup',
    metadata: { name, namespace, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { location: 'westus', ...(extra.tags ? { tags: extra.tags } : {}) },
  } as KubeObject;
}

/** A StorageAccount owned by the ResourceGroup object `owner` of the same namespace. */
export function storageAccount(namespace: string, name: string, owner: string): KubeObject {
  return {
    apiVersion: `${storageAccountType.group}/${storageAccountType.version}`,
    kind: 'StorageAccount',
    metadata: { name, namespace },
    spec: { location: 'westus', kind: 'StorageV2', sku: { name: 'Standard_LRS' }, owner: { name: owner } },
  } as KubeObject;
}

/** A UserAssignedIdentity owned by the ResourceGroup object `owner` of the same namespace. */
export function userAssignedIdentity(namespace: string, name: string, owner: string): KubeObject {
  return {
    apiVersion: `${userAssignedIdentityType.group}/${userAssignedIdentityType.version}`,
    kind: 'UserAssignedIdentity',
    metadata: { name, namespace },
    spec: { location: 'westus', owner: { name: owner } },
  } as KubeObject;
}

/** Creates the object through the operator's webhooks. */
export async function create(admin: KubeClient, object: KubeObject, type: Placement): Promise<void> {
  await applyObject(admin, object, type);
}

function objectPath(type: Placement, namespace: string, name: string): string {
  return `/apis/${type.group}/${type.version}/namespaces/${namespace}/${type.plural}/${name}`;
}

/** The object as the API server holds it now, or undefined once it is gone. */
export async function readObject(
  admin: KubeClient,
  type: Placement,
  namespace: string,
  name: string,
): Promise<AsoObject | undefined> {
  return admin
    .request<AsoObject>({
      path: objectPath(type, namespace, name),
      subject: { verb: 'get', resource: type.plural, namespace },
    })
    .catch((error: unknown) => {
      if (error instanceof NotFound) return undefined;
      throw error;
    });
}

/** The Ready condition the operator wrote on the object, if any. */
export function readyOf(object: AsoObject | undefined): OperatorCondition | undefined {
  return object?.status?.conditions?.find((condition) => condition.type === 'Ready');
}

/**
 * Waits until the operator has written a Ready condition with `reason` on the object (the operator's own
 * pace: it retries on its backoff), and returns the object as it was then.
 */
export async function waitForReason(
  admin: KubeClient,
  type: Placement,
  namespace: string,
  name: string,
  reason: string,
  timeoutMs: number,
  operatorRunning: () => boolean,
): Promise<AsoObject> {
  let seen: AsoObject | undefined;
  try {
    await waitUntil(
      `${type.plural}/${name} Ready reason ${reason}`,
      async () => {
        seen = await readObject(admin, type, namespace, name);
        return readyOf(seen)?.reason === reason;
      },
      timeoutMs,
      operatorRunning,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last Ready: ${JSON.stringify(readyOf(seen) ?? null)}`);
  }
  return seen!;
}

/** Deletes the object (the API server sets its deletion timestamp while the operator's finalizer holds it). */
export async function remove(
  admin: KubeClient,
  type: Placement,
  namespace: string,
  name: string,
): Promise<void> {
  await admin.request({
    method: 'DELETE',
    path: objectPath(type, namespace, name),
    subject: { verb: 'delete', resource: type.plural, namespace },
  });
}
