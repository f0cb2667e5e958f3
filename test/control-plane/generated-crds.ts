import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { pointCrdsAtWebhook, startWebhookProcess } from '../fixtures/conversion-webhook-process.ts';
import { filesUnder } from '../fixtures/files-under.ts';
import { applyObject, waitForEstablished } from './apply.ts';
import type { Plane } from './plane.ts';

const generatedDir = new URL('../../generated', import.meta.url).pathname;

function yamlFilesUnder(dir: string): string[] {
  return filesUnder(dir, (name) => /\.ya?ml$/.test(name));
}

/** Every CustomResourceDefinition in the YAML files under `generated/`, in path order. */
export function generatedCrds(): KubeObject[] {
  return yamlFilesUnder(generatedDir).flatMap((file) =>
    parseAllDocuments(readFileSync(file, 'utf8'))
      .map((document) => document.toJS() as KubeObject | null)
      .filter((object): object is KubeObject => object?.kind === 'CustomResourceDefinition'),
  );
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
