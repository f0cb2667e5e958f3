import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';

const group = 'dbforpostgresql.azure.com';
const plural = 'flexibleservers';

function path(version: string, namespace: string, name?: string): string {
  return `/apis/${group}/${version}/namespaces/${namespace}/${plural}${name ? `/${name}` : ''}`;
}

async function create(
  client: KubeClient,
  version: string,
  namespace: string,
  object: Record<string, unknown>,
): Promise<void> {
  await client.request({
    method: 'POST',
    path: path(version, namespace),
    body: object,
    subject: { verb: 'create', resource: plural },
  });
}

async function read(
  client: KubeClient,
  version: string,
  namespace: string,
  name: string,
): Promise<{ apiVersion: string; spec: Record<string, unknown> }> {
  return client.request({ path: path(version, namespace, name), subject: { verb: 'get', resource: plural } });
}

describe('the conversion webhook on the real control plane', () => {
  it('reads a FlexibleServer created at v1alpha1api back at v1beta and v1api versions', async () => {
    const client = await adminClient();
    const namespace = await freshNamespace('conversion');
    await create(client, 'v1alpha1api20210601', namespace, {
      apiVersion: `${group}/v1alpha1api20210601`,
      kind: 'FlexibleServer',
      metadata: { name: 'alpha', namespace },
      spec: {
        owner: { name: 'rg' },
        location: 'westeurope',
        version: '13',
        storage: { storageSizeGB: 128 },
        network: { privateDnsZoneArmResourceId: '/subscriptions/s/zones/z' },
        highAvailability: { mode: 'ZoneRedundant' },
      },
    });
    const beta = await read(client, 'v1beta20210601', namespace, 'alpha');
    expect(beta.apiVersion).toBe(`${group}/v1beta20210601`);
    expect(beta.spec).toMatchObject({
      location: 'westeurope',
      version: '13',
      storage: { storageSizeGB: 128 },
    });
    const ga = await read(client, 'v1api20210601', namespace, 'alpha');
    expect(ga.spec).toMatchObject({ network: { privateDnsZoneArmResourceId: '/subscriptions/s/zones/z' } });
    const latest = await read(client, 'v1api20230601', namespace, 'alpha');
    expect(latest.spec).toMatchObject({
      storage: { storageSizeGB: 128 },
      network: { privateDnsZoneResourceId: '/subscriptions/s/zones/z' },
    });
    expect(latest.spec).not.toHaveProperty('originalVersion');
  });

  it('reads a FlexibleServer created at the newest v1api version back at v1beta and v1alpha1api', async () => {
    const client = await adminClient();
    const namespace = await freshNamespace('conversion');
    await create(client, 'v1api20230601', namespace, {
      apiVersion: `${group}/v1api20230601`,
      kind: 'FlexibleServer',
      metadata: { name: 'ga', namespace },
      spec: {
        owner: { name: 'rg' },
        location: 'westeurope',
        version: '15',
        storage: { storageSizeGB: 256, autoGrow: 'Enabled' },
        network: { privateDnsZoneResourceId: '/zones/z' },
      },
    });
    const alpha = await read(client, 'v1alpha1api20210601', namespace, 'ga');
    expect(alpha.apiVersion).toBe(`${group}/v1alpha1api20210601`);
    expect(alpha.spec).toMatchObject({
      location: 'westeurope',
      version: '15',
      storage: { storageSizeGB: 256 },
      network: { privateDnsZoneArmResourceId: '/zones/z' },
    });
    const beta = await read(client, 'v1beta20210601', namespace, 'ga');
    expect(beta.spec).toMatchObject({ storage: { storageSizeGB: 256 } });
    // Stored at the hub: what the older versions cannot show is kept, and comes back at the newest version.
    const again = await read(client, 'v1api20230601', namespace, 'ga');
    expect(again.spec).toMatchObject({ storage: { storageSizeGB: 256, autoGrow: 'Enabled' } });
  });
});
