import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { clientFor, startPlane, stopPlane } from '../control-plane/plane.ts';
import {
  convertWithOperator,
  goToolchain,
  type OperatorWebhook,
  startOperatorWebhook,
} from '../fixtures/operator-conversion.ts';
import { withConversionWebhook } from '../fixtures/operator-webhook-crd.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const neededBy = 'test/differential/operator-webhook.plane.test.ts';
const go = goToolchain(neededBy);
const samples = sharedData('aso-samples/v2.20.0', neededBy);
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);

const group = 'storage.azure.com';
const hub = 'v20250601storage';
const older = 'v1api20220901';

/**
 * The operator's real StorageAccount CRD (v2.20.0, hub v20250601storage) on a control plane of its own, its
 * conversions served by the operator's own webhook handler: the setup `migrate`'s tests will run against.
 * A plane of its own because the suite's plane carries the generated CRD of the same name.
 */
describe.skipIf(!go.present || !samples.present || !crds.present)(
  "the operator's conversion webhook with the real StorageAccount CRD",
  () => {
    const stateDir = resolve(
      new URL('../..', import.meta.url).pathname,
      `.local/operator-webhook-plane-${process.pid}`,
    );
    let webhook: OperatorWebhook | undefined;
    let client: KubeClient;
    const sample = () =>
      parse(
        readFileSync(join(samples.path, 'storage', older, `${older}_storageaccount.yaml`), 'utf8'),
      ) as KubeObject;

    beforeAll(async () => {
      // The plane first: starting a plane clears its folder, where the webhook's certificates go.
      const plane = await startPlane(stateDir, { withGenerated: false });
      webhook = await startOperatorWebhook([group], join(stateDir, 'operator-webhook'));
      client = await clientFor(plane);
      const crd = parse(
        readFileSync(join(crds.path, 'storage.azure.com_storageaccounts.yaml'), 'utf8'),
      ) as KubeObject;
      await applyObject(client, withConversionWebhook(crd, webhook));
      await waitForEstablished(client, crd.metadata.name);
    }, 1_800_000);

    afterAll(async () => {
      await webhook?.stop();
      await stopPlane(stateDir);
    });

    it('converts a real sample to the hub and back through the CLI, losing nothing', async () => {
      const original = sample();
      const [atHub] = await convertWithOperator([original], `${group}/${hub}`);
      if (!atHub || 'error' in atHub) throw new Error(`to the hub: ${JSON.stringify(atHub)}`);
      expect(atHub.object.apiVersion).toBe(`${group}/${hub}`);
      expect(atHub.object.spec).toMatchObject({ originalVersion: older, accessTier: 'Hot' });
      const [back] = await convertWithOperator([atHub.object], `${group}/${older}`);
      if (!back || 'error' in back) throw new Error(`back: ${JSON.stringify(back)}`);
      expect(back.object.spec).toEqual(original.spec);
    });

    it('creates the sample at an older version and reads it at the hub and another version, as the CLI converts it', async () => {
      const namespace = 'default';
      const original = { ...sample(), metadata: { name: 'smoke', namespace } };
      const path = (version: string, name?: string) =>
        `/apis/${group}/${version}/namespaces/${namespace}/storageaccounts${name ? `/${name}` : ''}`;
      const subject = { verb: 'create', resource: 'storageaccounts', namespace };
      await client.request({ method: 'POST', path: path(older), body: original, subject });
      for (const version of [hub, older, 'v20230101', 'v1api20210401']) {
        const read = await client.request<KubeObject & { spec: Record<string, unknown> }>({
          path: path(version, 'smoke'),
          subject: { ...subject, verb: 'get' },
        });
        expect(read.apiVersion).toBe(`${group}/${version}`);
        const [expected] = await convertWithOperator([original], `${group}/${version}`);
        if (!expected || 'error' in expected) throw new Error(`CLI: ${JSON.stringify(expected)}`);
        expect(read.spec).toEqual(expected.object.spec);
      }
    });
  },
);
