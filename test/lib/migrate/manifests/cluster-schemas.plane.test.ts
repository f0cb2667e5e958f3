import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeClient } from '../../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../../src/lib/kube/list.ts';
import { clusterSchemas, connectForSchemas } from '../../../../src/lib/migrate/manifests/cluster-schemas.ts';
import { convertManifestObject } from '../../../../src/lib/migrate/manifests/convert-object.ts';
import { ConversionLoss } from '../../../../src/lib/migrate/manifests/errors.ts';
import { applyObject, waitForEstablished } from '../../../control-plane/apply.ts';
import { adminClient, kubeconfigForLoopbackPort, uniqueSuffix } from '../../../fixtures/cluster.ts';
import { sharedData } from '../../../fixtures/shared-data.ts';

const realCrds = sharedData(
  'real-aso-crds/v2.20.0',
  'test/lib/migrate/manifests/cluster-schemas.plane.test.ts',
);

let admin: KubeClient;
let group: string;

/**
 * The operator's real StorageAccountsQueueService CRD (a kind the catalog lacks), with its v1api20230101 and
 * v20230101 versions, under a fresh group so that no other test sees it.
 */
beforeAll(async () => {
  admin = await adminClient();
  const real = parse(
    readFileSync(join(realCrds.path, 'storage.azure.com_storageaccountsqueueservices.yaml'), 'utf8'),
  ) as { spec: { versions: Array<{ name: string; storage: boolean }>; names: Record<string, unknown> } };
  group = `q${uniqueSuffix()}.azure.com`;
  const versions = real.spec.versions
    .filter((version) => ['v1api20230101', 'v20230101'].includes(version.name))
    .map((version) => ({ ...version, storage: version.name === 'v20230101' }));
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `storageaccountsqueueservices.${group}` },
    spec: { ...real.spec, group, versions, conversion: { strategy: 'None' } },
  } as unknown as KubeObject;
  await applyObject(admin, crd);
  await waitForEstablished(admin, crd.metadata.name);
});

const queueService = (apiGroup: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: `${apiGroup}/v1api20230101`,
  kind: 'StorageAccountsQueueService',
  metadata: { name: 'orders-queues' },
  spec: {
    owner: { name: 'ordersstorage' },
    cors: { corsRules: [{ allowedOrigins: ['*'], maxAgeInSeconds: 60 }] },
    ...extra,
  },
});

const where = {
  source: 'queues.yaml#1',
  label: 'queues.yaml:1 (document 1) StorageAccountsQueueService/orders-queues',
};

describe.skipIf(!realCrds.present)(
  'migrate -f checks renames against the CRD in the real control plane',
  () => {
    it('renames a kind the catalog lacks and marks it verified by the CRD the cluster serves', async () => {
      const schemas = clusterSchemas(async () => admin);
      const { value, result } = await convertManifestObject(
        queueService(group),
        where,
        { target: { kind: 'prefix', prefix: 'v' }, allowLoss: false },
        schemas,
      );
      expect(value).toEqual({ ...queueService(group), apiVersion: `${group}/v20230101` });
      expect(result).toMatchObject({
        how: 'renamed',
        from: 'v1api20230101',
        to: 'v20230101',
        verified: true,
      });
    });

    it('refuses a field the served target version has no place for, naming it', async () => {
      const schemas = clusterSchemas(async () => admin);
      const run = convertManifestObject(
        queueService(group, { queueTier: 'premium' }),
        where,
        { target: { kind: 'prefix', prefix: 'v' }, allowLoss: false },
        schemas,
      );
      await expect(run).rejects.toBeInstanceOf(ConversionLoss);
      await expect(run).rejects.toThrow(`${where.label}: v20230101 cannot hold spec.queueTier`);
    });

    it('says why a kind the cluster does not serve is unverified', async () => {
      const schemas = clusterSchemas(async () => admin);
      const { result } = await convertManifestObject(
        queueService(`absent${uniqueSuffix()}.azure.com`),
        where,
        { target: { kind: 'exact', version: 'v20230101' }, allowLoss: false },
        schemas,
      );
      expect(result).toMatchObject({ how: 'renamed', verified: false });
      expect(result.note).toMatch(/the cluster serves no StorageAccountsQueueService\.absent/);
    });
  },
);

/** A kind of a real group that the catalog lacks: every v2.20.0 kind is in it, so one of a newer release. */
const backend = {
  apiVersion: 'apimanagement.azure.com/v1api20220801',
  kind: 'BackendOfANewerRelease',
  metadata: { name: 'orders-backend' },
  spec: { owner: { name: 'orders-apim' }, protocol: 'http', url: 'https://orders.example.com/api' },
};

describe('migrate -f with a cluster that does not answer', () => {
  it('gives up on the schema lookup after its timeout and goes on, the rename unverified', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const kubeconfig = kubeconfigForLoopbackPort(typeof address === 'object' && address ? address.port : 0);
    try {
      const schemas = clusterSchemas(() => connectForSchemas({ kubeconfig }, 300));
      const { result } = await convertManifestObject(
        backend,
        {
          source: 'backend.yaml#1',
          label: 'backend.yaml:1 (document 1) BackendOfANewerRelease/orders-backend',
        },
        { target: { kind: 'prefix', prefix: 'v' }, allowLoss: false },
        schemas,
      );
      expect(result).toMatchObject({ how: 'renamed', to: 'v20220801', verified: false });
      expect(result.note).toMatch(/no cluster to check against .*300 ms/);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
