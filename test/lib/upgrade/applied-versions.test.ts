import { describe, expect, it } from 'vitest';
import { appliedVersionsOf } from '../../../src/lib/upgrade/applied-version-findings.ts';

describe('appliedVersionsOf', () => {
  it("takes the versions clients wrote the object at, not the operator's status writes", () => {
    const versions = appliedVersionsOf({
      metadata: {
        name: 'x',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"g.azure.com/v1","kind":"K"}',
        },
        managedFields: [
          { apiVersion: 'g.azure.com/v2', operation: 'Apply' },
          { apiVersion: 'g.azure.com/v3storage', operation: 'Update', subresource: 'status' },
        ],
      },
    });
    expect([...versions].sort()).toEqual(['g.azure.com/v1', 'g.azure.com/v2']);
  });

  it('finds none on an object without managed fields or a last-applied annotation', () => {
    expect(appliedVersionsOf({ metadata: { name: 'x' } }).size).toBe(0);
  });
});
