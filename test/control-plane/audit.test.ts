import { describe, expect, it } from 'vitest';
import { listAll } from '../../src/lib/kube/list.ts';
import { applyObject } from '../control-plane/apply.ts';
import { adminClient, auditEvents, freshNamespace } from '../fixtures/cluster.ts';

describe('the audit log of the real control plane', () => {
  it('records a write and no read, so it can prove a command wrote nothing', async () => {
    const namespace = await freshNamespace('audit');
    const admin = await adminClient();
    await applyObject(admin, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'written', namespace },
    });
    await listAll(admin, { group: '', version: 'v1', plural: 'configmaps', namespace });
    const mine = auditEvents().filter((event) => event.objectRef?.namespace === namespace);
    const writes = mine.filter((event) => event.objectRef?.resource === 'configmaps');
    expect(writes.map((event) => event.verb)).toEqual(['create']);
    expect(mine.some((event) => event.verb === 'list' || event.verb === 'get')).toBe(false);
  });
});
