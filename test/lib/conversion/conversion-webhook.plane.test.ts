import { describe, expect, it } from 'vitest';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';
import { createServer as create, group, readServer as read } from './plane-support.ts';

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
        network: {
          privateDnsZoneArmResourceReference: {
            armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z',
          },
        },
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
    expect(ga.spec).toMatchObject({
      network: {
        privateDnsZoneArmResourceReference: {
          armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z',
        },
      },
    });
    const latest = await read(client, 'v20250801', namespace, 'alpha');
    expect(latest.spec).toMatchObject({
      storage: { storageSizeGB: 128 },
      network: {
        privateDnsZoneArmResourceReference: {
          armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z',
        },
      },
    });
    expect(latest.spec).not.toHaveProperty('originalVersion');
  });

  it('reads a FlexibleServer created at the newest v1api version back at v1beta and v1alpha1api', async () => {
    const client = await adminClient();
    const namespace = await freshNamespace('conversion');
    await create(client, 'v1api20240801', namespace, {
      apiVersion: `${group}/v1api20240801`,
      kind: 'FlexibleServer',
      metadata: { name: 'ga', namespace },
      spec: {
        owner: { name: 'rg' },
        location: 'westeurope',
        version: '15',
        storage: { storageSizeGB: 256, autoGrow: 'Enabled' },
        network: {
          privateDnsZoneArmResourceReference: {
            armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/y',
          },
        },
      },
    });
    const alpha = await read(client, 'v1alpha1api20210601', namespace, 'ga');
    expect(alpha.apiVersion).toBe(`${group}/v1alpha1api20210601`);
    expect(alpha.spec).toMatchObject({
      location: 'westeurope',
      version: '15',
      storage: { storageSizeGB: 256 },
      network: {
        privateDnsZoneArmResourceReference: {
          armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/y',
        },
      },
    });
    const beta = await read(client, 'v1beta20210601', namespace, 'ga');
    expect(beta.spec).toMatchObject({ storage: { storageSizeGB: 256 } });
    // Stored at the hub: what the older versions cannot show is kept, and comes back at the newest version.
    const again = await read(client, 'v1api20240801', namespace, 'ga');
    expect(again.spec).toMatchObject({ storage: { storageSizeGB: 256, autoGrow: 'Enabled' } });
    const hub = await read(client, 'v20250801', namespace, 'ga');
    expect(hub.apiVersion).toBe(`${group}/v20250801`);
    expect(hub.spec).toMatchObject({
      version: '15',
      storage: { storageSizeGB: 256, autoGrow: 'Enabled' },
      network: {
        privateDnsZoneArmResourceReference: {
          armId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/y',
        },
      },
    });
  });
});
