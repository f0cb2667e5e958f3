import { describe, expect, it } from 'vitest';
import { convert, hubOf, versionsOf } from '../../../src/lib/conversion/convert.ts';
import {
  type ConversionError,
  UnknownGroup,
  UnknownKind,
  UnknownVersion,
  WrongType,
} from '../../../src/lib/conversion/errors.ts';
import { exitCodes } from '../../../src/lib/exit-codes.ts';

const server = (spec: Record<string, unknown>, version = 'v1api20210601') => ({
  apiVersion: `dbforpostgresql.azure.com/${version}`,
  kind: 'FlexibleServer',
  metadata: { name: 'pg', namespace: 'default' },
  spec: { owner: { name: 'rg' }, location: 'westeurope', ...spec },
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('the single conversion entry point', () => {
  it('converts any version to any other of its kind through the hub', () => {
    const alpha = server({ storage: { storageSizeGB: 64 } }, 'v1alpha1api20210601');
    const latest = convert(alpha, 'dbforpostgresql.azure.com/v20250801');
    expect(latest.apiVersion).toBe('dbforpostgresql.azure.com/v20250801');
    expect(latest.spec).toEqual({
      owner: { name: 'rg' },
      location: 'westeurope',
      storage: { storageSizeGB: 64 },
    });
    expect(latest.metadata).toEqual(alpha.metadata);
    expect(hubOf('dbforpostgresql.azure.com', 'FlexibleServer')).toBe('v20250801storage');
    expect(versionsOf('dbforpostgresql.azure.com', 'FlexibleServer')).toContain('v1beta20210601storage');
  });

  it('records the original version on the hub and keeps what the hub cannot hold in its property bag', () => {
    const hub = convert(server({ zzCustom: { a: 1 } }, 'v1beta20210601'), 'v20250801storage');
    expect(hub.spec).toMatchObject({
      originalVersion: 'v1beta20210601',
      $propertyBag: { ZzCustom: '{"a":1}' },
    });
  });

  it('stashes a property removed in a newer version on the way up and recalls it on the way down', () => {
    // The operator's 2024-08-01 spec takes the key status; its 2025-08-01 hub does not.
    const older = server(
      { dataEncryption: { type: 'SystemManaged', primaryEncryptionKeyStatus: 'Valid' } },
      'v1api20240801',
    );
    const hub = convert(older, 'v20250801storage');
    expect(hub.spec).toMatchObject({
      dataEncryption: { type: 'SystemManaged', $propertyBag: { PrimaryEncryptionKeyStatus: 'Valid' } },
    });
    expect((hub.spec as { dataEncryption: object }).dataEncryption).not.toHaveProperty(
      'primaryEncryptionKeyStatus',
    );
    expect(convert(hub, 'v1api20240801').spec).toEqual(older.spec);
  });

  it('casts enums across versions whose values differ (SameZone exists only from 2022-12-01)', () => {
    const newer = server({ highAvailability: { mode: 'SameZone' } }, 'v1api20221201');
    expect(convert(newer, 'v1api20210601').spec).toMatchObject({ highAvailability: { mode: 'SameZone' } });
  });

  it('names an unknown group, kind or version in a typed error with the conversion exit code', () => {
    const group = thrown(() => convert({ ...server({}), apiVersion: 'nosuch.azure.com/v1' }, 'v1'));
    expect(group).toBeInstanceOf(UnknownGroup);
    expect((group as Error).message).toContain('nosuch.azure.com');
    expect(thrown(() => convert({ ...server({}), kind: 'Nope' }, 'v1api20210601'))).toBeInstanceOf(
      UnknownKind,
    );
    const version = thrown(() => convert(server({}), 'v1api20990101'));
    expect(version).toBeInstanceOf(UnknownVersion);
    expect((version as Error).message).toContain('v1api20990101');
    expect(thrown(() => convert(server({}, 'v9'), 'v1api20210601'))).toBeInstanceOf(UnknownVersion);
    expect((version as ConversionError).exit).toBe('conversion');
    expect(exitCodes[(version as ConversionError).exit].code).toBe(13);
  });

  it('reports a wrong-typed value with its JSON path instead of dropping it', () => {
    const bad = thrown(() => convert(server({ storage: { storageSizeGB: '128' } }), 'v20250801'));
    expect(bad).toBeInstanceOf(WrongType);
    expect((bad as WrongType).path).toBe('spec.storage.storageSizeGB');
    const inArray = {
      apiVersion: 'storage.azure.com/v1api20210401',
      kind: 'StorageAccount',
      spec: {
        owner: { name: 'rg' },
        networkAcls: { defaultAction: 'Deny', ipRules: [{ value: '1.2.3.4' }, { value: 5 }] },
      },
    };
    expect((thrown(() => convert(inArray, 'v1api20230101')) as WrongType).path).toBe(
      'spec.networkAcls.ipRules[1].value',
    );
    expect((thrown(() => convert(server({ tags: { a: 1 } }), 'v20250801')) as WrongType).path).toBe(
      'spec.tags["a"]',
    );
  });
});
