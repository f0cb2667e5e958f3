import type { KubeClient } from '../../src/lib/kube/client.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { pointCrdsAtWebhook, startWebhookProcess } from '../fixtures/conversion-webhook-process.ts';
import { generatedCrdStore } from '../fixtures/generated-crd-files.ts';
import { applyObject, waitForEstablished } from './apply.ts';
import type { Plane } from './plane.ts';

/**
 * Every generated CustomResourceDefinition (generated/crds, through the accessor that decompresses them),
 * by group then file name: fresh objects on each call, as the callers edit them before applying.
 */
export function generatedCrds(): KubeObject[] {
  return generatedCrdStore()
    .all()
    .map((crd) => structuredClone(crd.document()) as unknown as KubeObject);
}

/**
 * Applies the generated CRDs to the plane and waits until each is Established. Returns the ids of any
 * process started for them, so that stopping the plane stops those too.
 */
export async function applyGeneratedCrds(admin: KubeClient, plane: Plane): Promise<number[]> {
  const crds = generatedCrds();
  // Conversion webhook (issue 3): serve the generated conversions beside the plane and point every
  // generated CRD's clientConfig at it, as the operator's webhook would be.
  const webhook = await startWebhookProcess(plane.stateDir);
  pointCrdsAtWebhook(crds, webhook);
  for (const crd of crds) await applyObject(admin, crd);
  for (const crd of crds) await waitForEstablished(admin, crd.metadata.name);
  return [webhook.pid];
}
