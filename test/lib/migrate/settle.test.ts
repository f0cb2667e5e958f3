import { describe, expect, it } from 'vitest';
import type { Crd } from '../../../src/lib/migrate/crds.ts';
import { lastSpecChange, settleWaitMs } from '../../../src/lib/migrate/settle.ts';

function crdWith(managedFields: NonNullable<Crd['metadata']['managedFields']>): Crd {
  return {
    metadata: { name: 'flexibleservers.dbforpostgresql.azure.com', managedFields },
    spec: {
      group: 'dbforpostgresql.azure.com',
      names: { kind: 'FlexibleServer', plural: 'flexibleservers' },
      scope: 'Namespaced',
      versions: [],
    },
  };
}

describe('waiting for a CRD change to settle', () => {
  it('takes the newest write of the spec, not of the status or of metadata alone', () => {
    const crd = crdWith([
      { time: '2026-01-01T10:00:00Z', fieldsV1: { 'f:spec': {} } },
      { time: '2026-01-01T10:05:00Z', fieldsV1: { 'f:spec': {}, 'f:metadata': {} } },
      { time: '2026-01-01T10:09:00Z', subresource: 'status', fieldsV1: { 'f:status': {} } },
      { time: '2026-01-01T10:10:00Z', fieldsV1: { 'f:metadata': {} } },
    ]);
    expect(lastSpecChange(crd)).toBe(Date.parse('2026-01-01T10:05:00Z'));
    expect(lastSpecChange(crdWith([]))).toBeUndefined();
  });

  it('waits what is left of the settle time, never longer, and not at all for an old change', () => {
    const changed = Date.parse('2026-01-01T10:05:00Z');
    expect(settleWaitMs(changed, changed + 1_000, 5_000)).toBe(4_000);
    expect(settleWaitMs(changed, changed + 60_000, 5_000)).toBe(0);
    // A client clock behind the server's: the change looks like it is in the future.
    expect(settleWaitMs(changed, changed - 30_000, 5_000)).toBe(5_000);
    expect(settleWaitMs(undefined, changed, 5_000)).toBe(0);
  });
});
