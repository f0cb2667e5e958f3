import { describe, expect, it } from 'vitest';
import * as postgres from '../../../generated/dbforpostgresql/v1api20210601/arm.ts';
import * as kusto from '../../../generated/kusto/v1api20230815/arm.ts';
import { ArmPayloadError, defaultAzureName } from '../../../src/lib/conversion/arm.ts';
import { convert } from '../../../src/lib/conversion/convert.ts';

describe('ARM payloads', () => {
  it('re-nests properties, takes the name from azureName and drops owner', () => {
    const body = postgres.FlexibleServer_toArm({
      metadata: { name: 'k8s-name' },
      spec: {
        azureName: 'pg-1',
        owner: { name: 'rg' },
        location: 'westeurope',
        tags: { a: 'b' },
        sku: { name: 'B1ms', tier: 'Burstable' },
        version: '13',
        storage: { storageSizeGB: 32 },
      },
    });
    expect(body).toEqual({
      name: 'pg-1',
      location: 'westeurope',
      tags: { a: 'b' },
      sku: { name: 'B1ms', tier: 'Burstable' },
      properties: { version: '13', storage: { storageSizeGB: 32 } },
    });
  });

  it('defaults the name to metadata.name and flattens an ARM response into status', () => {
    expect(
      postgres.FlexibleServer_toArm({
        metadata: { name: 'k8s-name' },
        spec: { owner: { name: 'rg' }, location: 'w' },
      }).name,
    ).toBe('k8s-name');
    const status = postgres.FlexibleServer_statusFromArm({
      id: '/x',
      name: 'pg',
      type: 'Microsoft.DBforPostgreSQL/flexibleServers',
      location: 'w',
      properties: { state: 'Ready', version: '13' },
    });
    expect(status).toEqual({
      id: '/x',
      name: 'pg',
      type: 'Microsoft.DBforPostgreSQL/flexibleServers',
      location: 'w',
      state: 'Ready',
      version: '13',
    });
  });

  it('builds the body of a oneOf root from its one leaf, which carries the name (seed 004 option 2)', () => {
    const object = {
      metadata: { name: 'db' },
      spec: {
        owner: { name: 'cluster' },
        readWrite: { kind: 'ReadWrite' as const, location: 'w', hotCachePeriod: 'P7D' },
      },
    };
    expect(kusto.ClustersDatabase_toArm(object)).toEqual({
      name: 'db',
      kind: 'ReadWrite',
      location: 'w',
      properties: { hotCachePeriod: 'P7D' },
    });
    expect(defaultAzureName(object, kusto.ClustersDatabase_armLayout).spec).toMatchObject({
      readWrite: { azureName: 'db' },
    });
    expect(
      kusto.ClustersDatabase_statusFromArm({
        kind: 'ReadOnlyFollowing',
        name: 'db',
        properties: { leaderClusterResourceId: '/c' },
      }),
    ).toEqual({
      readOnlyFollowing: { name: 'db', kind: 'ReadOnlyFollowing', leaderClusterResourceId: '/c' },
    });
    expect(() => kusto.ClustersDatabase_toArm({ spec: { owner: { name: 'c' } } })).toThrow(ArmPayloadError);
  });

  it('sends only the properties of its own version, at every depth, and never a property bag', () => {
    const hub = convert(
      {
        apiVersion: 'dbforpostgresql.azure.com/v20250801',
        kind: 'FlexibleServer',
        metadata: { name: 'pg' },
        spec: {
          owner: { name: 'rg' },
          location: 'w',
          storage: { storageSizeGB: 32, autoGrow: 'Enabled' },
          dataEncryption: { type: 'SystemManaged' },
          network: { privateDnsZoneArmResourceId: '/z' },
        },
      },
      'v1api20210601',
    );
    expect(hub.spec).toHaveProperty('storage.$propertyBag.AutoGrow');
    const body = postgres.FlexibleServer_toArm(hub as never);
    expect(body).toEqual({
      name: 'pg',
      location: 'w',
      properties: { storage: { storageSizeGB: 32 }, network: { privateDnsZoneArmResourceId: '/z' } },
    });
    const extra = postgres.FlexibleServer_toArm({
      metadata: { name: 'pg' },
      spec: {
        location: 'w',
        zzRoot: 1,
        sku: { name: 'B1ms', zz: 2 },
        maintenanceWindow: { dayOfWeek: 1, $propertyBag: { x: '1' } },
        tags: JSON.parse('{"__proto__":"kept","a":"b"}'),
      } as never,
    });
    expect(extra).toEqual({
      name: 'pg',
      location: 'w',
      sku: { name: 'B1ms' },
      tags: JSON.parse('{"__proto__":"kept","a":"b"}'),
      properties: { maintenanceWindow: { dayOfWeek: 1 } },
    });
  });
});
