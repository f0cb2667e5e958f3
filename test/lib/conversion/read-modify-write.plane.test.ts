import { describe, expect, it } from 'vitest';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';
import { createServer, group, readServer, replaceServer } from './plane-support.ts';

describe('a read-modify-write at an older version on the real control plane', () => {
  it('keeps hub-only data through GET and PUT at v1api20210601', async () => {
    const client = await adminClient();
    const namespace = await freshNamespace('rmw');
    await createServer(client, 'v20250801', namespace, {
      apiVersion: `${group}/v20250801`,
      kind: 'FlexibleServer',
      metadata: { name: 'rmw', namespace },
      spec: {
        owner: { name: 'rg' },
        location: 'westeurope',
        version: '15',
        storage: { storageSizeGB: 128, autoGrow: 'Enabled', tier: 'P10' },
        dataEncryption: { type: 'SystemManaged' },
      },
    });
    // 2021-06-01 has neither storage.autoGrow nor dataEncryption: they must ride along, where the API
    // server does not prune them, through a GET and a PUT at that version.
    const old = await readServer(client, 'v1api20210601', namespace, 'rmw');
    expect(old.spec).not.toHaveProperty('dataEncryption');
    expect(old.spec.storage).not.toHaveProperty('autoGrow');
    old.spec.location = 'northeurope';
    await replaceServer(client, 'v1api20210601', namespace, old);
    const hub = await readServer(client, 'v20250801', namespace, 'rmw');
    expect(hub.spec).toMatchObject({
      location: 'northeurope',
      storage: { storageSizeGB: 128, autoGrow: 'Enabled', tier: 'P10' },
      dataEncryption: { type: 'SystemManaged' },
    });
    expect(hub.spec).not.toHaveProperty('$propertyBag');
  });

  it('rejects an owner given both by name and by ARM ID (CEL rule on the generated CRDs)', async () => {
    const client = await adminClient();
    const namespace = await freshNamespace('owner');
    const create = createServer(client, 'v1api20210601', namespace, {
      apiVersion: `${group}/v1api20210601`,
      kind: 'FlexibleServer',
      metadata: { name: 'both', namespace },
      spec: { owner: { name: 'rg', armId: '/subscriptions/s/resourceGroups/rg' }, location: 'w' },
    });
    await expect(create).rejects.toThrow(/owner: set name \(a Kubernetes object\) or armId/);
  });
});
