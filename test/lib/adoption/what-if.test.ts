import { describe, expect, it } from 'vitest';
import { catalog } from '../../../generated/catalog.ts';
import { flagImmutable, whatIf, withoutWriteOnly } from '../../../src/lib/adoption/what-if.ts';

describe('whatIf', () => {
  it('reports only what the spec sets and differs, with ARM paths', () => {
    const desired = {
      location: 'westus',
      sku: { name: 'B2' },
      properties: { version: '16', storage: { storageSizeGB: 64 } },
    };
    const actual = {
      name: 'pg',
      location: 'West US',
      sku: { name: 'B1', tier: 'Burstable' },
      properties: { Version: '14', storage: { storageSizeGB: 64 }, state: 'Ready' },
    };
    expect(whatIf(desired, actual)).toEqual([
      { path: 'sku.name', from: 'B1', to: 'B2' },
      { path: 'properties.version', from: '14', to: '16' },
    ]);
  });
  it('reports a property Azure lacks as from null', () => {
    expect(whatIf({ tags: { a: 'b' } }, {})).toEqual([{ path: 'tags', from: null, to: { a: 'b' } }]);
  });
  it('reports every tag the resource has as removed when the body sets none: the PUT carries an empty set', () => {
    expect(whatIf({ location: 'westus' }, { location: 'westus', tags: { owner: 'x' } })).toEqual([
      { path: 'tags.owner', from: 'x', to: null },
    ]);
    expect(whatIf({ location: 'westus' }, { location: 'westus', tags: {} })).toEqual([]);
    expect(whatIf({ properties: { a: 1 } }, { properties: { a: 1, tags: { inner: 'kept' } } })).toEqual([]);
  });
  it('reports a tag the resource has and the spec lacks as removed: the PUT replaces the tag set', () => {
    expect(
      whatIf({ tags: { env: 'prod', Team: 'a' } }, { tags: { team: 'a', owner: 'x' }, properties: { p: 1 } }),
    ).toEqual([
      { path: 'tags.env', from: null, to: 'prod' },
      { path: 'tags.owner', from: 'x', to: null },
    ]);
  });
});

describe('whatIf on maps the PUT sets whole', () => {
  const actual = { properties: { metadata: { purpose: 'old', extra: 'x' }, limits: { cpu: 2, memory: 4 } } };
  const desired = { properties: { metadata: { purpose: 'new' }, limits: { cpu: 2 } } };
  it('reports an entry Azure holds and the body lacks as removed, only for a map', () => {
    expect(whatIf(desired, actual, new Set(['properties.metadata']))).toEqual([
      { path: 'properties.metadata.purpose', from: 'old', to: 'new' },
      { path: 'properties.metadata.extra', from: 'x', to: null },
    ]);
    // A typed object's property the body leaves out is kept by ARM: no change.
    expect(whatIf(desired, actual)).toEqual([
      { path: 'properties.metadata.purpose', from: 'old', to: 'new' },
    ]);
  });
  it("compares nothing where the operator's encoder writes null for an unset list or map", () => {
    expect(
      whatIf({ properties: { rules: null, tier: 'Hot' } }, { properties: { rules: [1], tier: 'Hot' } }),
    ).toEqual([]);
  });
});

describe('whatIf on lists', () => {
  const desired = {
    properties: {
      networkAcls: {
        ipRules: [
          { value: '10.0.0.0/24', action: 'Allow' },
          { value: '10.1.0.0/24', action: 'Allow' },
        ],
      },
    },
  };

  it('passes over what Azure adds to each element of a list the spec sets', () => {
    const actual = {
      properties: {
        networkAcls: {
          ipRules: [
            { value: '10.0.0.0/24', action: 'allow', id: '/rules/0', provisioningState: 'Succeeded' },
            { value: '10.1.0.0/24', action: 'Allow', id: '/rules/1' },
          ],
        },
      },
    };
    expect(whatIf(desired, actual)).toEqual([]);
  });

  it('names the element and property that differ', () => {
    const actual = {
      properties: {
        networkAcls: {
          ipRules: [
            { value: '10.0.0.0/24', action: 'Allow' },
            { value: '10.9.0.0/24', action: 'Allow', id: '/rules/1' },
          ],
        },
      },
    };
    expect(whatIf(desired, actual)).toEqual([
      { path: 'properties.networkAcls.ipRules[1].value', from: '10.9.0.0/24', to: '10.1.0.0/24' },
    ]);
  });

  it('reports a list of another length whole, and a list of the same elements in another order once', () => {
    const shorter = { properties: { networkAcls: { ipRules: [{ value: '10.0.0.0/24', action: 'Allow' }] } } };
    expect(whatIf(desired, shorter)).toEqual([
      {
        path: 'properties.networkAcls.ipRules',
        from: shorter.properties.networkAcls.ipRules,
        to: desired.properties.networkAcls.ipRules,
      },
    ]);
    expect(
      whatIf(
        { properties: { dnsServers: ['10.0.0.4', '10.0.0.5'] } },
        { properties: { dnsServers: ['10.0.0.5', '10.0.0.4'] } },
      ),
    ).toEqual([
      {
        path: 'properties.dnsServers',
        from: ['10.0.0.5', '10.0.0.4'],
        to: ['10.0.0.4', '10.0.0.5'],
        orderOnly: true,
      },
    ]);
    // What Azure adds to each element does not hide a reordering; a duplicate must be matched twice.
    const reordered = [
      { value: '10.1.0.0/24', action: 'Allow', id: '/rules/1' },
      { value: '10.0.0.0/24', action: 'Allow', id: '/rules/0' },
    ];
    expect(whatIf(desired, { properties: { networkAcls: { ipRules: reordered } } })).toEqual([
      {
        path: 'properties.networkAcls.ipRules',
        from: reordered,
        to: desired.properties.networkAcls.ipRules,
        orderOnly: true,
      },
    ]);
    expect(
      whatIf({ properties: { zones: ['1', '1', '2'] } }, { properties: { zones: ['2', '1', '3'] } }),
    ).toEqual([
      { path: 'properties.zones[0]', from: '2', to: '1' },
      { path: 'properties.zones[2]', from: '3', to: '2' },
    ]);
  });

  it('matches the elements of a list of named objects by name, in whatever order Azure lists them', () => {
    const rule = (name: string, port: number) => ({ name, properties: { frontendPort: port } });
    const desired = { properties: { inboundNatRules: [rule('ssh', 22), rule('rdp', 3389)] } };
    expect(
      whatIf(desired, { properties: { inboundNatRules: [rule('RDP', 3389), rule('ssh', 22)] } }),
    ).toEqual([]);
    expect(
      whatIf(desired, { properties: { inboundNatRules: [rule('rdp', 3390), rule('ssh', 22)] } }),
    ).toEqual([{ path: 'properties.inboundNatRules[1].properties.frontendPort', from: 3390, to: 3389 }]);
    // Other names, or a name twice: compared by place.
    expect(whatIf(desired, { properties: { inboundNatRules: [rule('http', 80), rule('ssh', 22)] } })).toEqual(
      [
        { path: 'properties.inboundNatRules[0].name', from: 'http', to: 'ssh' },
        { path: 'properties.inboundNatRules[0].properties.frontendPort', from: 80, to: 22 },
        { path: 'properties.inboundNatRules[1].name', from: 'ssh', to: 'rdp' },
        { path: 'properties.inboundNatRules[1].properties.frontendPort', from: 22, to: 3389 },
      ],
    );
  });

  it('flags a change inside an element of an immutable list', () => {
    const changes = [{ path: 'zones[0]', from: '1', to: '2' }];
    expect(flagImmutable(changes, ['zones'])[0]?.immutable).toBe(true);
  });
});

describe('withoutWriteOnly', () => {
  const changes = [
    { path: 'properties.siteConfig.accessKey', from: null, to: 'k' },
    { path: 'properties.rules[2].token', from: null, to: 't' },
    { path: 'properties.rules[2].tokenName', from: null, to: 'n' },
    { path: 'properties.rules[2].token', from: 'old', to: 't' },
    { path: 'properties.siteConfig.accessKeyHint', from: null, to: 'h' },
  ];

  it('sets aside a value Azure does not return at a write-only path, at any element of a list', () => {
    expect(
      withoutWriteOnly(changes, ['properties.siteConfig.accessKey', 'properties.rules[*].token']),
    ).toEqual([
      { path: 'properties.rules[2].tokenName', from: null, to: 'n' },
      { path: 'properties.rules[2].token', from: 'old', to: 't' },
      { path: 'properties.siteConfig.accessKeyHint', from: null, to: 'h' },
    ]);
    expect(withoutWriteOnly(changes, [])).toEqual(changes);
  });

  it('knows the write-only properties of the generated kinds, from the schemas', () => {
    const withSome = catalog.filter((entry) =>
      Object.values(entry.writeOnly).some((paths) => paths.length > 0),
    );
    expect(withSome.length).toBeGreaterThan(0);
    const site = catalog.find((entry) => entry.group === 'web.azure.com' && entry.kind === 'Site');
    expect(site?.writeOnly.v1api20220301).toContain('spec.siteConfig.azureStorageAccounts[*].accessKey');
  });
});

describe('flagImmutable', () => {
  it('flags changes at or under an immutable ARM path, in any case, and nothing beside it', () => {
    const changes = [
      { path: 'location', from: 'eastus', to: 'westus' },
      { path: 'properties.administratorLogin', from: 'a', to: 'b' },
      { path: 'properties.administratorLoginPassword', from: 'a', to: 'b' },
      { path: 'properties.network.delegatedSubnetResourceId', from: '/a', to: '/b' },
      { path: 'properties.version', from: '14', to: '16' },
    ];
    expect(
      flagImmutable(changes, [
        'location',
        'properties.administratorlogin',
        'properties.network.delegatedSubnetResourceId',
      ]).map((c) => c.immutable ?? false),
    ).toEqual([true, true, false, true, false]);
  });
});
