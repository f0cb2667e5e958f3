import { describe, expect, it } from 'vitest';
import { convert } from '../../../../src/lib/conversion/convert.ts';
import { WrongType } from '../../../../src/lib/conversion/errors.ts';

/*
 * The operator's augmentConversionForMySQLServerIdentity_STATUS, mirrored: 2023-12-30 holds user-assigned
 * identities as any JSON, 2024-12-30 as typed values; Go's JSON decoder and encoder sit between them.
 */

const group = 'dbformysql.azure.com';

function withIdentities(version: string, userAssignedIdentities: unknown) {
  return {
    apiVersion: `${group}/${version}`,
    kind: 'FlexibleServer',
    metadata: { name: 'server', namespace: 'default' },
    spec: { owner: { name: 'rg' }, location: 'westus' },
    status: { identity: { type: 'UserAssigned', userAssignedIdentities } },
  };
}

const identitiesAt = (object: unknown, version: string) =>
  (
    (convert(object, `${group}/${version}`).status as Record<string, unknown>).identity as Record<
      string,
      unknown
    >
  ).userAssignedIdentities;

describe('MySQL flexible servers’ status identities between 2023-12-30 and 2024-12-30', () => {
  it('reads each JSON value as Go decodes it into the typed identity: any case, last match wins, others dropped', () => {
    const typed = identitiesAt(
      withIdentities('v20231230storage', {
        a: { clientId: 'c', PRINCIPALID: 'p1', principalId: 'p2', other: 1 },
        b: null,
        c: { $propertyBag: { X: '1' }, $PropertyBag: { Y: '2' } },
      }),
      'v20241230storage',
    );
    expect(typed).toEqual({
      a: { clientId: 'c', principalId: 'p2' },
      b: {},
      c: { $propertyBag: { X: '1', Y: '2' } },
    });
  });

  it('refuses a value Go cannot decode into an identity, naming where it is', () => {
    const bad = withIdentities('v20231230storage', { a: 'not an identity' });
    expect(() => convert(bad, `${group}/v20241230storage`)).toThrow(WrongType);
    expect(() => convert(bad, `${group}/v20241230storage`)).toThrow(
      'status.identity.userAssignedIdentities.a',
    );
    const badField = withIdentities('v20231230storage', { a: { clientId: 7 } });
    expect(() => convert(badField, `${group}/v20241230storage`)).toThrow('userAssignedIdentities.a.clientId');
  });

  it('writes typed identities back as JSON with only the fields Go encodes', () => {
    const json = identitiesAt(
      withIdentities('v20241230storage', {
        a: { clientId: 'c', principalId: '' },
        b: {},
        c: { $propertyBag: {} },
      }),
      'v20231230storage',
    );
    expect(json).toEqual({ a: { clientId: 'c', principalId: '' }, b: {}, c: {} });
  });

  it('keeps no copy in either bag, as the operator’s generated code copies nothing there', () => {
    const up = convert(
      withIdentities('v20231230storage', { a: { clientId: 'c' } }),
      `${group}/v20241230storage`,
    );
    expect(JSON.stringify(up)).not.toContain('UserAssignedIdentities');
    const down = convert(
      withIdentities('v20241230storage', { a: { clientId: 'c' } }),
      `${group}/v20231230storage`,
    );
    expect(JSON.stringify(down)).not.toContain('UserAssignedIdentities');
  });
});
