import { describe, expect, it } from 'vitest';
import { matchesFailOn } from '../../../src/lib/adoption/report.ts';
import { runAdoptCheck } from '../../../src/lib/adoption/run.ts';
import type { ArmLookup, ArmReader } from '../../../src/lib/azure/arm-reader.ts';
import { mapBounded } from '../../../src/lib/azure/arm-reader.ts';
import { readManifests } from '../../../src/lib/manifests/read.ts';

const sub = '11111111-1111-1111-1111-111111111111';
const yaml = `
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: ns}
spec: {location: westus}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServer
metadata: {name: pg, namespace: ns}
spec: {owner: {name: rg}, location: westus, version: "16"}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersDatabase
metadata: {name: db, namespace: ns, annotations: {serviceoperator.azure.com/reconcile-policy: skip}}
spec: {owner: {name: pg}}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersFirewallRule
metadata: {name: fw, namespace: ns}
spec: {owner: {name: pg}}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersDatabase
metadata: {name: lost, namespace: ns}
spec: {owner: {name: nope}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
`;

/** adopt-check over `manifests` with the local credential and no cluster, ARM answering through `get`. */
function checkWithoutCluster(manifests: string, get: ArmReader['get'], concurrency = 2) {
  return runAdoptCheck(readManifests({ files: ['-'], recursive: false, readStdin: () => manifests }), {
    client: undefined,
    defaultNamespace: 'default',
    operatorNamespace: 'azureserviceoperator-system',
    subscription: sub,
    credential: 'local',
    concurrency,
    mapBounded,
    readerOf: async () => ({ list: async () => ({ state: 'error', message: 'no listing here' }), get }),
  });
}

describe('runAdoptCheck without a cluster (local credential, fake ARM)', () => {
  it('answers each object and never writes', async () => {
    const calls: string[] = [];
    const report = await checkWithoutCluster(
      yaml,
      async (id, apiVersion): Promise<ArmLookup> => {
        calls.push(`GET ${id}?api-version=${apiVersion}`);
        if (id.endsWith('/flexibleServers/pg'))
          return { state: 'found', body: { location: 'westus', properties: { version: '14' } } };
        if (id.endsWith('/databases/db')) return { state: 'not-found', code: 'ResourceNotFound' };
        if (id.endsWith('/firewallRules/fw'))
          return { state: 'forbidden', message: 'no permission to read it (AuthorizationFailed)' };
        return { state: 'not-found', code: 'ResourceGroupNotFound' };
      },
      4,
    );
    const by = (name: string) => report.items.find((i) => i.name === name);
    expect(by('rg')).toMatchObject({
      outcome: 'create',
      exists: false,
      reason: expect.stringContaining('will create'),
    });
    expect(by('pg')).toMatchObject({
      outcome: 'adopt-manage',
      exists: true,
      changes: [{ path: 'properties.version', from: '14', to: '16' }],
    });
    expect(by('db')).toMatchObject({ outcome: 'skip-missing', reconcilePolicy: 'skip' });
    expect(by('fw')).toMatchObject({ outcome: 'unknown', exists: null });
    expect(by('lost')).toMatchObject({ outcome: 'unknown', reason: expect.stringContaining('owner nope') });
    expect(report.summary.passedOver).toBe(1);
    expect(calls).toContain(
      `GET /subscriptions/${sub}/resourceGroups/rg/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg?api-version=2022-12-01`,
    );
  });
});

describe('runAdoptCheck on a version the core does not generate', () => {
  it('keeps the outcome, and says the what-if is not known rather than guessing a body', async () => {
    const newer = `
apiVersion: dbforpostgresql.azure.com/v1api20991231
kind: FlexibleServer
metadata: {name: pg, namespace: ns}
spec: {owner: {armId: /subscriptions/${sub}/resourceGroups/rg}, location: westus, version: "16"}
`;
    const asked: string[] = [];
    const report = await checkWithoutCluster(newer, async (_id, apiVersion): Promise<ArmLookup> => {
      asked.push(apiVersion);
      return { state: 'found', body: { location: 'westus', properties: { version: '14' } } };
    });
    const [item] = report.items;
    expect(asked).toEqual(['2099-12-31']);
    expect(item).toMatchObject({
      outcome: 'adopt-manage',
      exists: true,
      changes: [],
      whatIfUnknown: expect.stringContaining('FlexibleServer at dbforpostgresql.azure.com/v1api20991231'),
      reason: expect.stringContaining('what ASO would send is not predicted'),
    });
    // Not a clean answer: `--fail-on unknown` and the partial exit code see it; a changes gate does not.
    expect(matchesFailOn(item!, 'unknown')).toBe(true);
    expect(matchesFailOn(item!, 'change')).toBe(false);
    expect(matchesFailOn(item!, 'delete-risk')).toBe(true);
  });
});

describe('runAdoptCheck under skip', () => {
  it('reports no changes for a resource the operator will only read, and source of its policy', async () => {
    const manifest = `
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: ns, annotations: {serviceoperator.azure.com/reconcile-policy: skip}}
spec: {location: westus, tags: {env: prod}}
---
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg2, namespace: ns}
spec: {location: westus, tags: {env: prod}}
`;
    const report = await checkWithoutCluster(
      manifest,
      async (): Promise<ArmLookup> => ({
        state: 'found',
        body: { location: 'westus', tags: { env: 'dev' } },
      }),
    );
    const by = (name: string) => report.items.find((i) => i.name === name);
    expect(by('rg')).toMatchObject({ outcome: 'skip-exists', reconcilePolicySource: 'object', changes: [] });
    expect(by('rg2')).toMatchObject({
      outcome: 'adopt-manage',
      reconcilePolicySource: 'default',
      changes: [{ path: 'tags.env', from: 'dev', to: 'prod' }],
    });
  });
});

describe('runAdoptCheck on a spec the operator cannot send', () => {
  it('answers unknown, naming the union with no option set, and still answers the rest', async () => {
    const rules = `
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: ns}
spec: {location: westus}
---
apiVersion: cdn.azure.com/v1api20230501
kind: Profile
metadata: {name: cdn, namespace: ns}
spec: {owner: {name: rg}, location: global, sku: {name: Standard_AzureFrontDoor}}
---
apiVersion: cdn.azure.com/v1api20230501
kind: RuleSet
metadata: {name: rules, namespace: ns}
spec: {owner: {name: cdn}}
---
apiVersion: cdn.azure.com/v1api20230501
kind: Rule
metadata: {name: broken, namespace: ns}
spec:
  owner: {name: rules}
  order: 1
  actions:
    - urlRedirect: {name: UrlRedirect, parameters: {redirectType: Found, typeName: DeliveryRuleUrlRedirectActionParameters}}
    - {}
---
apiVersion: cdn.azure.com/v1api20230501
kind: Rule
metadata: {name: redirect, namespace: ns}
spec:
  owner: {name: rules}
  order: 2
  actions:
    - urlRedirect: {name: UrlRedirect, parameters: {redirectType: Moved, typeName: DeliveryRuleUrlRedirectActionParameters}}
`;
    const report = await checkWithoutCluster(rules, async (id) => {
      if (id.includes('/rules/'))
        return {
          state: 'found',
          body: {
            properties: {
              order: 2,
              actions: [
                {
                  name: 'UrlRedirect',
                  parameters: {
                    redirectType: 'Found',
                    typeName: 'DeliveryRuleUrlRedirectActionParameters',
                  },
                },
              ],
            },
          },
        };
      return { state: 'found', body: { location: 'westus' } };
    });
    const by = (name: string) => report.items.find((i) => i.name === name);
    expect(by('broken')).toMatchObject({
      outcome: 'unknown',
      changes: [],
      reason: expect.stringContaining(
        'ASO cannot send this spec to Azure: spec.actions[1]: none of cacheExpiration,',
      ),
    });
    // The other rule's action is sent in the union's place, so only its redirect type differs.
    expect(by('redirect')).toMatchObject({
      outcome: 'adopt-manage',
      changes: [{ path: 'properties.actions[0].parameters.redirectType', from: 'Found', to: 'Moved' }],
    });
  });
});
