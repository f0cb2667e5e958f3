import { describe, expect, it } from 'vitest';
import * as authorization from '../../../generated/authorization/v1api20220401/arm.ts';
import * as cdn from '../../../generated/cdn/v1api20230501/arm.ts';
import * as aks from '../../../generated/containerservice/v1api20240901/arm.ts';
import * as postgres from '../../../generated/dbforpostgresql/v1api20210601/arm.ts';
import * as postgres2025 from '../../../generated/dbforpostgresql/v20250801/arm.ts';
import * as kusto from '../../../generated/kusto/v1api20230815/arm.ts';
import * as network from '../../../generated/network/v20250301/arm.ts';
import * as storage from '../../../generated/storage/v20250601/arm.ts';
import {
  ArmPayloadError,
  armBody,
  armBodyParts,
  defaultAzureName,
  UnresolvedReferenceError,
  UnsendableUnionError,
} from '../../../src/lib/conversion/arm.ts';
import { convertKeepingLeftovers } from '../../../src/lib/conversion/convert.ts';

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

  it('builds the body of a oneOf root from its one leaf and the root name, as the operator shapes it', () => {
    const object = {
      metadata: { name: 'db' },
      spec: {
        owner: { name: 'cluster' },
        readWriteDatabase: { kind: 'ReadWrite' as const, location: 'w', hotCachePeriod: 'P7D' },
      },
    };
    expect(kusto.Database_toArm(object)).toEqual({
      name: 'db',
      kind: 'ReadWrite',
      location: 'w',
      properties: { hotCachePeriod: 'P7D' },
    });
    expect(kusto.Database_toArm({ ...object, spec: { ...object.spec, azureName: 'other' } })).toMatchObject({
      name: 'other',
    });
    expect(defaultAzureName(object, kusto.Database_armLayout).spec).toMatchObject({ azureName: 'db' });
    // The status names the leaf after its kind (`readWrite`) and keeps the name at its root.
    expect(
      kusto.Database_statusFromArm({
        kind: 'ReadWrite',
        name: 'db',
        id: '/d',
        properties: { isFollowed: false, hotCachePeriod: 'P7D' },
      }),
    ).toEqual({
      name: 'db',
      readWrite: { id: '/d', kind: 'ReadWrite', isFollowed: false, hotCachePeriod: 'P7D' },
    });
    // The operator offers no read-only following database: ARM reporting one is a kind the layout lacks.
    expect(() => kusto.Database_statusFromArm({ kind: 'ReadOnlyFollowing', name: 'db' })).toThrow(
      ArmPayloadError,
    );
    expect(() => kusto.Database_toArm({ spec: { owner: { name: 'c' } } })).toThrow(ArmPayloadError);
  });

  it('sends only the properties of its own version, at every depth, and never a property bag', () => {
    // Kept leftovers are the worst case for the ARM body: bags wherever a value has no typed place.
    const hub = convertKeepingLeftovers(
      {
        apiVersion: 'dbforpostgresql.azure.com/v20250801',
        kind: 'FlexibleServer',
        metadata: { name: 'pg' },
        spec: {
          owner: { name: 'rg' },
          location: 'w',
          storage: { storageSizeGB: 32, autoGrow: 'Enabled' },
          dataEncryption: { type: 'SystemManaged' },
          network: { privateDnsZoneArmResourceReference: { armId: '/z' } },
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

describe("ARM payloads of the operator's transformed properties (issue 8, item 3)", () => {
  const server = (spec: Record<string, unknown>) => ({
    apiVersion: 'dbforpostgresql.azure.com/v20250801',
    kind: 'FlexibleServer',
    metadata: { name: 'pg', namespace: 'prod' },
    spec: { owner: { name: 'rg' }, location: 'w', ...spec },
  });

  it('sends a reference by ARM ID as the <name>Id ARM has, at the root and nested', () => {
    const body = authorization.RoleAssignment_toArm({
      metadata: { name: 'ra' },
      spec: {
        owner: { armId: '/subscriptions/s' },
        principalId: 'p',
        roleDefinitionReference: { armId: '/providers/Microsoft.Authorization/roleDefinitions/r' },
      },
    });
    expect(body).toEqual({
      name: 'ra',
      properties: {
        principalId: 'p',
        roleDefinitionId: '/providers/Microsoft.Authorization/roleDefinitions/r',
      },
    });
    const nested = armBody(
      server({ network: { delegatedSubnetResourceReference: { armId: '/subnet' } } }),
      postgres2025.FlexibleServer_armLayout,
    );
    expect(nested.properties).toEqual({ network: { delegatedSubnetResourceId: '/subnet' } });
  });

  it('resolves a reference by name only through the caller, and says which one it could not resolve', () => {
    const object = server({
      network: {
        delegatedSubnetResourceReference: {
          group: 'network.azure.com',
          kind: 'VirtualNetworksSubnet',
          name: 'sn',
        },
      },
      sourceServerResourceReference: { armId: '/src' },
    });
    let error: unknown;
    try {
      armBody(object, postgres2025.FlexibleServer_armLayout);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnresolvedReferenceError);
    expect((error as UnresolvedReferenceError).paths).toEqual([
      'spec.network.delegatedSubnetResourceReference',
    ]);
    expect((error as Error).message).toMatch(
      /^FlexibleServer prod\/pg: .*spec\.network\.delegatedSubnetResourceReference/,
    );
    const asked: unknown[] = [];
    const body = armBody(object, postgres2025.FlexibleServer_armLayout, {
      armIdOf: (ref, path) => {
        asked.push({ ref, path });
        return ref.name === 'sn' ? '/subscriptions/s/vnet/subnets/sn' : undefined;
      },
    });
    expect(asked).toEqual([
      {
        ref: { group: 'network.azure.com', kind: 'VirtualNetworksSubnet', name: 'sn' },
        path: 'spec.network.delegatedSubnetResourceReference',
      },
    ]);
    expect(body.properties).toEqual({
      network: { delegatedSubnetResourceId: '/subscriptions/s/vnet/subnets/sn' },
      sourceServerResourceId: '/src',
    });
    const unnamed = armBodyParts(
      server({ sourceServerResourceReference: { kind: 'FlexibleServer' } }),
      postgres2025.FlexibleServer_armLayout,
      { armIdOf: () => '/never' },
    );
    expect(unnamed.unresolved).toEqual(['spec.sourceServerResourceReference']);
    expect(unnamed.body.properties).toBeUndefined();
  });

  it('never sends a secret reference, and names it as withheld', () => {
    const parts = armBodyParts(
      server({
        administratorLogin: 'admin',
        administratorLoginPassword: { name: 'pg-secret', key: 'password' },
      }),
      postgres2025.FlexibleServer_armLayout,
    );
    expect(parts.body).toEqual({ name: 'pg', location: 'w', properties: { administratorLogin: 'admin' } });
    expect(parts.withheld).toEqual(['spec.administratorLoginPassword']);
    expect(JSON.stringify(parts)).not.toContain('pg-secret');
  });

  it("sends a *FromConfig value as <name> once the caller read the config map; it wins over the plain value, as in the operator's ConvertToARM", () => {
    const object = server({ authConfig: { tenantIdFromConfig: { name: 'cm', key: 'tenant' } } });
    expect(() => armBody(object, postgres2025.FlexibleServer_armLayout)).toThrow(UnresolvedReferenceError);
    const body = armBody(object, postgres2025.FlexibleServer_armLayout, {
      configMapValue: (ref) => (ref.name === 'cm' && ref.key === 'tenant' ? 't-1' : undefined),
    });
    expect(body.properties).toEqual({ authConfig: { tenantId: 't-1' } });
    const both = server({
      authConfig: { tenantId: 'plain', tenantIdFromConfig: { name: 'cm', key: 'tenant' } },
    });
    const read = armBody(both, postgres2025.FlexibleServer_armLayout, { configMapValue: () => 't-1' });
    expect(read.properties).toEqual({ authConfig: { tenantId: 't-1' } });
    // The plain value is not what the operator would send, so without the config map there is no body.
    expect(() => armBody(both, postgres2025.FlexibleServer_armLayout)).toThrow(UnresolvedReferenceError);
  });

  it("sends a list of user-assigned identity references as ARM's map keyed by ARM ID", () => {
    const body = armBody(
      {
        apiVersion: 'storage.azure.com/v20250601',
        kind: 'StorageAccount',
        metadata: { name: 'sa' },
        spec: {
          location: 'w',
          identity: {
            type: 'UserAssigned',
            userAssignedIdentities: [{ reference: { armId: '/id/a' } }, { reference: { name: 'mi' } }],
          },
          networkAcls: { defaultAction: 'Deny', virtualNetworkRules: [{ reference: { armId: '/subnet' } }] },
        },
      },
      storage.StorageAccount_armLayout,
      { armIdOf: (ref) => `/id/${ref.name}` },
    );
    expect(body.identity).toEqual({
      type: 'UserAssigned',
      userAssignedIdentities: { '/id/a': {}, '/id/mi': {} },
    });
    expect(body.properties).toEqual({
      networkAcls: {
        defaultAction: 'Deny',
        virtualNetworkRules: [{ id: '/subnet' }],
        // The operator's Go fields without omitempty: null when unset.
        ipRules: null,
        ipv6Rules: null,
        resourceAccessRules: null,
      },
    });
  });
});

describe('the maps an ARM body sets whole', () => {
  it('lists the ARM path of each map it sends, at every depth, and of no typed object', () => {
    const parts = armBodyParts(
      {
        apiVersion: 'storage.azure.com/v20250601',
        kind: 'StorageAccountsBlobServicesContainer',
        metadata: { name: 'c' },
        spec: {
          metadata: { purpose: 'logs' },
          immutableStorageWithVersioning: { enabled: true },
        },
      },
      storage.StorageAccountsBlobServicesContainer_armLayout,
    );
    expect(parts.body.properties).toEqual({
      metadata: { purpose: 'logs' },
      immutableStorageWithVersioning: { enabled: true },
    });
    expect(parts.wholeAt).toEqual(['properties.metadata']);
    const account = armBodyParts(
      {
        apiVersion: 'storage.azure.com/v20250601',
        kind: 'StorageAccount',
        metadata: { name: 'sa' },
        spec: { location: 'w', tags: { a: 'b' }, networkAcls: { defaultAction: 'Deny' } },
      },
      storage.StorageAccount_armLayout,
    );
    expect(account.wholeAt).toEqual(['tags']);
  });
});

describe("empty values as the operator's Go encoder writes them", () => {
  const account = (spec: Record<string, unknown>) =>
    armBody(
      { apiVersion: 'storage.azure.com/v20250601', kind: 'StorageAccount', metadata: { name: 'sa' }, spec },
      storage.StorageAccount_armLayout,
    );
  it('writes null for an unset or empty list or map without omitempty, in each object that holds one', () => {
    const body = account({ location: 'w', networkAcls: { defaultAction: 'Deny', ipRules: [] } });
    expect(body).toEqual({
      name: 'sa',
      location: 'w',
      tags: null,
      zones: null,
      properties: {
        networkAcls: {
          defaultAction: 'Deny',
          ipRules: null,
          ipv6Rules: null,
          resourceAccessRules: null,
          virtualNetworkRules: null,
        },
      },
    });
    // An object that is not sent holds nothing: no networkAcls, no nulls below it.
    expect(account({ location: 'w', tags: {} })).toEqual({
      name: 'sa',
      location: 'w',
      tags: {},
      zones: null,
    });
  });
  it('leaves out an empty list or map of a field with omitempty, and keeps an empty typed object', () => {
    const body = armBody(
      {
        apiVersion: 'network.azure.com/v20250301',
        kind: 'PublicIPAddress',
        metadata: { name: 'ip' },
        spec: { location: 'w', tags: {}, zones: [], ipTags: [], dnsSettings: {} },
      },
      network.PublicIPAddress_armLayout,
    );
    expect(body).toEqual({ name: 'ip', location: 'w', properties: { dnsSettings: {} } });
    const container = armBody(
      {
        apiVersion: 'storage.azure.com/v20250601',
        kind: 'StorageAccountsBlobServicesContainer',
        metadata: { name: 'c' },
        spec: { publicAccess: 'None', metadata: {} },
      },
      storage.StorageAccountsBlobServicesContainer_armLayout,
    );
    // A map without omitempty that is set, even empty, is written as it is.
    expect(container.properties).toEqual({ publicAccess: 'None', metadata: {} });
  });
});

describe("AKS's collections sent explicitly empty", () => {
  it('sends unset node labels, taints and tags as {} and [], and the labels as a map the PUT sets whole', () => {
    const parts = armBodyParts(
      {
        apiVersion: 'containerservice.azure.com/v1api20240901',
        kind: 'ManagedClustersAgentPool',
        metadata: { name: 'pool' },
        spec: { count: 3, vmSize: 'Standard_D2s_v3', nodeTaints: [] },
      },
      aks.ManagedClustersAgentPool_armLayout,
    );
    expect(parts.body.properties).toMatchObject({ count: 3, nodeLabels: {}, nodeTaints: [], tags: {} });
    expect(parts.wholeAt).toEqual(expect.arrayContaining(['properties.nodeLabels', 'properties.tags']));
  });
});

describe("PostgreSQL administrators' azureNameFromConfig (the name read from a config map)", () => {
  const layout = postgres2025.FlexibleServersAdministrator_armLayout;
  const administrator = (spec: Record<string, unknown>) => ({
    apiVersion: 'dbforpostgresql.azure.com/v20250801',
    kind: 'FlexibleServersAdministrator',
    metadata: { name: 'k8s-name', namespace: 'default' },
    spec: { owner: { name: 'server' }, principalType: 'User', ...spec },
  });
  const fromConfig = { azureNameFromConfig: { name: 'admins', key: 'objectId' } };

  it('names the ARM body with the config map value, never metadata.name, and never sends the reference', () => {
    const object = defaultAzureName(administrator(fromConfig), layout);
    expect((object.spec as Record<string, unknown>).azureName).toBeUndefined();
    const body = armBody(object, layout, {
      configMapValue: (ref) =>
        ref.name === 'admins' && ref.key === 'objectId' ? 'the-object-id' : undefined,
    });
    expect(body).toEqual({ name: 'the-object-id', properties: { principalType: 'User' } });
  });

  it('reports the reference unresolved when nothing reads config maps, and sends no name', () => {
    const parts = armBodyParts(defaultAzureName(administrator(fromConfig), layout), layout);
    expect(parts.unresolved).toEqual(['spec.azureNameFromConfig']);
    expect(parts.body.name).toBeUndefined();
    expect(() => armBody(administrator(fromConfig), layout)).toThrow(UnresolvedReferenceError);
  });

  it('lets an azureName win, as the operator’s AzureName() does', () => {
    const body = armBody(administrator({ ...fromConfig, azureName: 'explicit' }), layout);
    expect(body.name).toBe('explicit');
  });
});

describe('discriminated unions below the root (a CDN rule’s actions and conditions)', () => {
  const rule = (spec: Record<string, unknown>) => ({
    apiVersion: 'cdn.azure.com/v1api20230501',
    kind: 'Rule',
    metadata: { name: 'redirect', namespace: 'prod' },
    spec: { owner: { name: 'rules' }, order: 1, ...spec },
  });
  const redirect = { name: 'UrlRedirect', parameters: { redirectType: 'Found', typeName: 'x' } };
  const cache = { name: 'CacheExpiration', parameters: { cacheBehavior: 'Override', typeName: 'y' } };

  it('sends the option set in the union’s place, and ruleconditions as ARM’s conditions', () => {
    const body = cdn.Rule_toArm(
      rule({
        actions: [{ urlRedirect: redirect }],
        ruleconditions: [{ requestScheme: { name: 'RequestScheme', parameters: { operator: 'Equal' } } }],
      }),
    );
    expect(body).toEqual({
      name: 'redirect',
      properties: {
        order: 1,
        actions: [redirect],
        conditions: [{ name: 'RequestScheme', parameters: { operator: 'Equal' } }],
      },
    });
  });

  it('sends the first option in the operator’s order when more than one is set, as its MarshalJSON does', () => {
    // cacheExpiration comes first in the operator’s order, though urlRedirect is first in the object.
    const body = cdn.Rule_toArm(rule({ actions: [{ urlRedirect: redirect, cacheExpiration: cache }] }));
    expect((body.properties as Record<string, unknown>).actions).toEqual([cache]);
  });

  it('refuses a union with no option set, naming it, as the operator cannot send one', () => {
    const build = () => cdn.Rule_toArm(rule({ actions: [{ urlRedirect: redirect }, {}] }));
    expect(build).toThrow(UnsendableUnionError);
    expect(build).toThrow('spec.actions[1]: none of cacheExpiration, cacheKeyQueryString,');
  });
});

describe('references the operator places or names otherwise', () => {
  const endpoint = (connection: Record<string, unknown>) => ({
    apiVersion: 'network.azure.com/v20250301',
    kind: 'PrivateEndpoint',
    metadata: { name: 'pe', namespace: 'prod' },
    spec: { owner: { name: 'rg' }, location: 'w', manualPrivateLinkServiceConnections: [connection] },
  });

  it('sends a well-known name in place of any ID the reference also holds', () => {
    const body = network.PrivateEndpoint_toArm(
      endpoint({ name: 'c', privateLinkServiceReference: { wellKnownName: 'svc.alias', armId: '/ignored' } }),
    );
    expect(body.properties).toEqual({
      manualPrivateLinkServiceConnections: [{ name: 'c', properties: { privateLinkServiceId: 'svc.alias' } }],
    });
  });

  it('wraps a reference ARM keeps in an object of its own (an IPAM allocation’s pool.id)', () => {
    const body = network.VirtualNetwork_toArm({
      metadata: { name: 'vnet' },
      spec: {
        owner: { name: 'rg' },
        addressSpace: {
          ipamPoolPrefixAllocations: [{ numberOfIpAddresses: '16', reference: { armId: '/pool' } }],
        },
      },
    });
    expect(body.properties).toEqual({
      addressSpace: { ipamPoolPrefixAllocations: [{ numberOfIpAddresses: '16', pool: { id: '/pool' } }] },
    });
  });
});
