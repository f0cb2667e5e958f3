import { describe, expect, it } from 'vitest';
import { Forbidden } from '../../../src/lib/kube/errors.ts';
import { listAll } from '../../../src/lib/kube/list.ts';
import { applyObject } from '../../control-plane/apply.ts';
import { freshNamespace, readonlyClient } from '../../fixtures/cluster.ts';

describe('the readonly context on the real control plane', () => {
  it('can list', async () => {
    const namespace = await freshNamespace('ro');
    const namespaces = await listAll(await readonlyClient(), {
      group: '',
      version: 'v1',
      plural: 'namespaces',
    });
    expect(namespaces.map((item) => item.metadata.name)).toContain(namespace);
  });

  it('gets a forbidden error naming the verb and the resource on a write', async () => {
    const namespace = await freshNamespace('ro');
    const attempt = applyObject(await readonlyClient(), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'nope', namespace },
    });
    await expect(attempt).rejects.toBeInstanceOf(Forbidden);
    await expect(attempt).rejects.toThrow(new RegExp(`cannot create configmaps in namespace ${namespace}`));
  });
});
