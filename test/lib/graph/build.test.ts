import { describe, expect, it } from 'vitest';
import { buildGraph, type ObjectOfKind } from '../../../src/lib/graph/build.ts';
import { findCycles } from '../../../src/lib/graph/cycles.ts';
import type { ReferencePath } from '../../../src/lib/graph/schema-references.ts';

const dbPaths: ReferencePath[] = [
  {
    path: ['owner'],
    role: 'owner',
    ownerType: { group: 'dbforpostgresql.azure.com', kind: 'FlexibleServer' },
  },
];
const serverPaths: ReferencePath[] = [
  { path: ['owner'], role: 'owner', ownerType: { group: 'resources.azure.com', kind: 'ResourceGroup' } },
  { path: ['administratorLoginPassword'], role: 'secret' },
  { path: ['operatorSpec', 'configMaps', 'fqdn'], role: 'exportConfigMap' },
  { path: ['network', 'delegatedSubnetResourceReference'], role: 'resource' },
];

function server(
  name: string,
  spec: Record<string, unknown>,
  extra: Partial<ObjectOfKind['object']['metadata']> = {},
): ObjectOfKind {
  return {
    kind: 'FlexibleServer',
    group: 'dbforpostgresql.azure.com',
    paths: serverPaths,
    object: { metadata: { name, namespace: 'app', uid: `uid-${name}`, ...extra }, spec },
  };
}

describe('the graph built from listed objects', () => {
  it('marks an owner, a secret and a config map that are not there as missing, and links present ones', () => {
    const graph = buildGraph({
      objects: [
        server('pg', {
          owner: { name: 'rg' },
          administratorLoginPassword: { name: 'pg-admin', key: 'password' },
          operatorSpec: { configMaps: { fqdn: { name: 'pg-out', key: 'host' } } },
        }),
        {
          kind: 'FlexibleServersDatabase',
          group: 'dbforpostgresql.azure.com',
          paths: dbPaths,
          object: { metadata: { name: 'db', namespace: 'app' }, spec: { owner: { name: 'pg' } } },
        },
      ],
      secrets: new Map([['app', new Set(['other'])]]),
      configMaps: new Map([['app', new Set(['pg-out'])]]),
      warnings: [],
    });
    const byId = Object.fromEntries(graph.nodes.map((node) => [node.id, node]));
    expect(byId['resources.azure.com/resourcegroup/app/rg']?.presence).toBe('missing');
    expect(byId['/secret/app/pg-admin']?.presence).toBe('missing');
    expect(byId['/configmap/app/pg-out']?.presence).toBe('present');
    expect(graph.edges).toContainEqual({
      from: 'dbforpostgresql.azure.com/flexibleserversdatabase/app/db',
      to: 'dbforpostgresql.azure.com/flexibleserver/app/pg',
      relation: 'owner',
      at: 'spec.owner',
    });
    expect(graph.edges.map((edge) => `${edge.relation} ${edge.at}`).sort()).toEqual([
      'exportConfigMap spec.operatorSpec.configMaps.fqdn',
      'owner spec.owner',
      'owner spec.owner',
      'secret spec.administratorLoginPassword',
    ]);
    expect(graph.cycles).toEqual([]);
  });

  it('marks secrets unknown where they could not be listed, never missing', () => {
    const graph = buildGraph({
      objects: [server('pg', { administratorLoginPassword: { name: 'pg-admin', key: 'password' } })],
      secrets: new Map([['app', 'forbidden']]),
      configMaps: new Map(),
      warnings: [{ subject: 'secrets in namespace app', reason: 'Forbidden', message: 'no' }],
    });
    expect(graph.nodes.find((node) => node.type === 'secret')?.presence).toBe('unknown');
    expect(graph.warnings).toHaveLength(1);
  });

  it('links an armId reference to the object that declares that ARM ID, else to an external node', () => {
    const subnet =
      '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/a';
    const graph = buildGraph({
      objects: [
        server('pg', {
          network: { delegatedSubnetResourceReference: { armId: subnet.toUpperCase() } },
          owner: { armId: '/subscriptions/s/resourceGroups/far' },
        }),
        {
          kind: 'VirtualNetworksSubnet',
          group: 'network.azure.com',
          paths: [],
          object: { metadata: { name: 'a', namespace: 'app' }, spec: {}, status: { id: subnet } },
        },
      ],
      secrets: new Map(),
      configMaps: new Map(),
      warnings: [],
    });
    const targets = graph.edges.map((edge) => `${edge.relation} ${edge.to}`).sort();
    expect(targets).toEqual([
      'owner arm:/subscriptions/s/resourcegroups/far',
      'reference network.azure.com/virtualnetworkssubnet/app/a',
    ]);
    expect(graph.nodes.find((node) => node.type === 'arm')).toMatchObject({
      presence: 'external',
      kind: 'Microsoft.Resources/resourceGroups',
    });
  });

  it('does not repeat an owner reference that spec.owner already gives, and keeps one that differs', () => {
    const graph = buildGraph({
      objects: [
        server('pg', { owner: { name: 'rg' } }, {}),
        {
          kind: 'ResourceGroup',
          group: 'resources.azure.com',
          paths: [],
          object: { metadata: { name: 'rg', namespace: 'app', uid: 'uid-rg' }, spec: {} },
        },
        {
          kind: 'FlexibleServersDatabase',
          group: 'dbforpostgresql.azure.com',
          paths: dbPaths,
          object: {
            metadata: {
              name: 'db',
              namespace: 'app',
              ownerReferences: [
                {
                  apiVersion: 'dbforpostgresql.azure.com/v1',
                  kind: 'FlexibleServer',
                  name: 'pg',
                  uid: 'uid-pg',
                },
                { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web' },
              ],
            },
            spec: { owner: { name: 'pg' } },
          },
        },
      ],
      secrets: new Map(),
      configMaps: new Map(),
      warnings: [],
    });
    const fromDb = graph.edges
      .filter((edge) => edge.from.endsWith('/db'))
      .map((edge) => `${edge.relation} ${edge.to}`);
    expect(fromDb).toEqual([
      'owner dbforpostgresql.azure.com/flexibleserver/app/pg',
      'ownerReference apps/deployment/app/web',
    ]);
    expect(graph.nodes.find((node) => node.kind === 'Deployment')).toMatchObject({
      type: 'kubernetes',
      presence: 'unknown',
    });
  });

  it('names a cycle of references as the walk along it', () => {
    const pointAt = (name: string) => ({
      network: {
        delegatedSubnetResourceReference: {
          group: 'dbforpostgresql.azure.com',
          kind: 'FlexibleServer',
          name,
        },
      },
    });
    const graph = buildGraph({
      objects: [server('a', pointAt('b')), server('b', pointAt('a')), server('c', pointAt('a'))],
      secrets: new Map(),
      configMaps: new Map(),
      warnings: [],
    });
    expect(graph.cycles).toEqual([
      [
        'dbforpostgresql.azure.com/flexibleserver/app/a',
        'dbforpostgresql.azure.com/flexibleserver/app/b',
        'dbforpostgresql.azure.com/flexibleserver/app/a',
      ],
    ]);
    const cycles = findCycles([
      { from: 'x', to: 'y', relation: 'owner', at: 'spec.owner' },
      { from: 'y', to: 'z', relation: 'reference', at: 'spec.ref' },
      { from: 'z', to: 'x', relation: 'owner', at: 'spec.owner' },
      { from: 'q', to: 'q', relation: 'owner', at: 'spec.owner' },
      { from: 'z', to: 'w', relation: 'owner', at: 'spec.owner' },
    ]);
    expect(cycles).toEqual([
      ['q', 'q'],
      ['x', 'y', 'z', 'x'],
    ]);
  });
});
