import { describe, expect, it } from 'vitest';
import { adminClient, freshNamespace } from '../../fixtures/cluster.ts';
import { createServer, group, readServer, replaceServer } from './plane-support.ts';

describe('a read-modify-write at an older version on the real control plane', () => {
  it('loses hub-only data through GET and PUT at v1api20210601, as with the operator', async () => {
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
    // 2021-06-01 has neither storage.autoGrow nor dataEncryption, and an API version has no bag to keep them
    // in: like the operator's conversions, the generated ones drop them there, so a PUT at that version
    // stores the object without them. What the old version types survives.
    const old = await readServer(client, 'v1api20210601', namespace, 'rmw');
    expect(old.spec).not.toHaveProperty('dataEncryption');
    expect(old.spec.storage).not.toHaveProperty('autoGrow');
    old.spec.location = 'northeurope';
    await replaceServer(client, 'v1api20210601', namespace, old);
    const hub = await readServer(client, 'v20250801', namespace, 'rmw');
    expect(hub.spec).toMatchObject({
      location: 'northeurope',
      version: '15',
      storage: { storageSizeGB: 128 },
    });
    expect(hub.spec).not.toHaveProperty('dataEncryption');
    expect(hub.spec.storage).not.toHaveProperty('autoGrow');
    expect(hub.spec).not.toHaveProperty('$propertyBag');
  });

  it("rejects an owner armId that is no ARM ID (the operator's pattern, on every version)", async () => {
    const client = await adminClient();
    const namespace = await freshNamespace('owner');
    const create = createServer(client, 'v1api20210601', namespace, {
      apiVersion: `${group}/v1api20210601`,
      kind: 'FlexibleServer',
      metadata: { name: 'bad-owner', namespace },
      spec: { owner: { armId: 'resource-group-rg' }, location: 'w' },
    });
    await expect(create).rejects.toThrow(/spec\.owner\.armId/);
  });
});
