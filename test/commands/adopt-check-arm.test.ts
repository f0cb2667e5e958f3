import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, freshNamespace, testPlane } from '../fixtures/cluster.ts';

// The ARM emulator is another piece of work in this repository; without it this file says so and skips.
const emulatorModule = new URL('../fixtures/arm-emulator/index.ts', import.meta.url).pathname;
const haveEmulator = existsSync(emulatorModule);
if (!haveEmulator) console.log(`skipping: ${emulatorModule} is absent`);

interface Emulator {
  env: Record<string, string>;
  requestLogFile: string;
  stop: () => Promise<void>;
}

const sub = '22222222-2222-2222-2222-222222222222';
const rgId = `/subscriptions/${sub}/resourceGroups/rg-exists`;
const pgId = `${rgId}/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg`;
// A server name the CRDs accept (the operator's azureName is 3 to 63 characters), for objects in the cluster.
const pgChainId = `${rgId}/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg-chain-srv`;
const sqlId = `${rgId}/providers/Microsoft.Sql/servers/sqlsrv`;
const secretValue = 'this-value-must-never-be-printed';

describe.skipIf(!haveEmulator)('adopt-check end to end with the ARM emulator', () => {
  let emulator: Emulator;
  let ns: string;
  let file: string;

  beforeAll(async () => {
    const { startArmEmulator } = (await import(emulatorModule)) as {
      startArmEmulator: (o: unknown) => Promise<Emulator>;
    };
    emulator = await startArmEmulator({
      clientSecret: secretValue,
      seed: {
        resources: [
          { id: rgId, apiVersion: '2020-06-01', body: { location: 'westus' } },
          { id: pgId, apiVersion: '2022-12-01', body: { location: 'westus', properties: { version: '14' } } },
          {
            id: pgChainId,
            apiVersion: '2022-12-01',
            body: { location: 'westus', properties: { version: '14' } },
          },
          { id: sqlId, apiVersion: '2021-11-01', body: { location: 'westus', properties: {} } },
          {
            id: `${sqlId}/databases/db-copy1`,
            apiVersion: '2021-11-01',
            body: { location: 'westus', properties: { createMode: 'Default' } },
          },
          {
            id: `${sqlId}/databases/db-copy2`,
            apiVersion: '2021-11-01',
            body: { location: 'westus', properties: { createMode: 'Default' } },
          },
        ],
        forbidden: [`${pgId}/firewallRules`],
      },
    });
    ns = await freshNamespace('adopt-arm');
    const data: Record<string, string> = { ...emulator.env, AZURE_SUBSCRIPTION_ID: sub };
    delete data.NODE_EXTRA_CA_CERTS;
    delete data.ARM_EMULATOR_REQUEST_LOG;
    const client = await adminClient();
    await client.request({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/secrets`,
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'aso-credential' }, stringData: data },
      subject: { verb: 'create', resource: 'secrets', namespace: ns },
    });
    const obj = (
      kind: string,
      version: string,
      group: string,
      name: string,
      spec: object,
      annotations = {},
    ) =>
      JSON.stringify({
        apiVersion: `${group}/${version}`,
        kind,
        metadata: { name, namespace: ns, annotations },
        spec,
      });
    const pgGroup = 'dbforpostgresql.azure.com';
    file = path.join(mkdtempSync(path.join(tmpdir(), 'adopt-arm-')), 'db.yaml');
    writeFileSync(
      file,
      [
        obj('ResourceGroup', 'v1api20200601', 'resources.azure.com', 'rg-exists', { location: 'westus' }),
        obj('FlexibleServer', 'v1api20221201', pgGroup, 'pg', {
          owner: { name: 'rg-exists' },
          location: 'westus',
          version: '16',
        }),
        obj('FlexibleServersDatabase', 'v1api20221201', pgGroup, 'newdb', { owner: { name: 'pg' } }),
        obj(
          'FlexibleServersDatabase',
          'v1api20221201',
          pgGroup,
          'skipdb',
          { owner: { name: 'pg' } },
          {
            'serviceoperator.azure.com/reconcile-policy': 'skip',
          },
        ),
        obj('FlexibleServersFirewallRule', 'v1api20221201', pgGroup, 'fw', { owner: { name: 'pg' } }),
        obj('ResourceGroup', 'v1api20200601', 'resources.azure.com', 'rg-new', { location: 'westus' }),
        obj('FlexibleServer', 'v1api20221201', pgGroup, 'pg2', {
          owner: { name: 'rg-new' },
          location: 'westus',
        }),
      ].join('\n---\n'),
    );
  });

  afterAll(async () => {
    await emulator?.stop();
  });

  it('answers create, adopt-manage, skip-missing, parent missing and 403, with only GETs', async () => {
    const run = await runCli(['adopt-check', '-f', file, '-o', 'json'], {
      KUBECONFIG: testPlane().kubeconfig,
      NODE_EXTRA_CA_CERTS: emulator.env.NODE_EXTRA_CA_CERTS,
    });
    expect(run.stderr).not.toContain(secretValue);
    expect(run.stdout).not.toContain(secretValue);
    const report = JSON.parse(run.stdout) as AdoptReport;
    const by = (name: string) => report.items.find((i) => i.name === name);
    expect(by('rg-exists')).toMatchObject({ outcome: 'adopt-manage', exists: true, armId: rgId });
    expect(by('pg')).toMatchObject({
      outcome: 'adopt-manage',
      changes: [{ path: 'properties.version', from: '14', to: '16' }],
    });
    expect(by('newdb')).toMatchObject({ outcome: 'create', exists: false });
    expect(by('skipdb')).toMatchObject({ outcome: 'skip-missing' });
    expect(by('fw')).toMatchObject({ outcome: 'unknown', exists: null });
    expect(by('rg-new')).toMatchObject({ outcome: 'create' });
    expect(by('pg2')).toMatchObject({ outcome: 'create', reason: expect.stringContaining('same files') });
    expect(run.code).toBe(10);
    const resourceRequests = readFileSync(emulator.requestLogFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('/subscriptions/'));
    expect(resourceRequests.length).toBeGreaterThanOrEqual(7);
    expect(resourceRequests.filter((line) => !line.startsWith('GET '))).toEqual([]);
  });

  it('finds an owner in the cluster by its resource-id, and says an object in the cluster is already managed', async () => {
    const client = await adminClient();
    const group = await client.request<{ preferredVersion: { version: string } }>({
      path: '/apis/resources.azure.com',
      subject: { verb: 'get', resource: 'resources.azure.com' },
    });
    await client.request({
      method: 'POST',
      path: `/apis/resources.azure.com/${group.preferredVersion.version}/namespaces/${ns}/resourcegroups`,
      body: {
        apiVersion: `resources.azure.com/${group.preferredVersion.version}`,
        kind: 'ResourceGroup',
        metadata: { name: 'rg-cluster', annotations: { 'serviceoperator.azure.com/resource-id': rgId } },
        spec: { location: 'westus', azureName: 'rg-exists' },
      },
      subject: { verb: 'create', resource: 'resourcegroups', namespace: ns },
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'adopt-arm-'));
    const child = path.join(dir, 'child.yaml');
    writeFileSync(
      child,
      JSON.stringify({
        apiVersion: 'dbforpostgresql.azure.com/v1api20221201',
        kind: 'FlexibleServer',
        metadata: { name: 'pg3', namespace: ns },
        spec: { owner: { name: 'rg-cluster' }, location: 'westus' },
      }),
    );
    const env = { KUBECONFIG: testPlane().kubeconfig, NODE_EXTRA_CA_CERTS: emulator.env.NODE_EXTRA_CA_CERTS };
    const run = await runCli(['adopt-check', '-f', child, '-o', 'json'], env);
    const report = JSON.parse(run.stdout) as AdoptReport;
    expect(report.items[0]).toMatchObject({
      armId: `${rgId}/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg3`,
      outcome: 'create',
    });
    expect(run.code).toBe(0);
    const same = path.join(dir, 'rg.yaml');
    writeFileSync(
      same,
      JSON.stringify({
        apiVersion: 'resources.azure.com/v1api20200601',
        kind: 'ResourceGroup',
        metadata: { name: 'rg-cluster', namespace: ns },
        spec: { location: 'westus', azureName: 'rg-exists' },
      }),
    );
    const again = JSON.parse(
      (await runCli(['adopt-check', '-f', same, '-o', 'json'], env)).stdout,
    ) as AdoptReport;
    expect(again.items[0]).toMatchObject({ outcome: 'already-managed' });
  });

  /** Creates an object in the test namespace at the group's preferred version (the plane has no operator). */
  async function createInCluster(
    group: string,
    plural: string,
    kind: string,
    name: string,
    spec: object,
    annotations: Record<string, string> = {},
  ): Promise<void> {
    const client = await adminClient();
    // The kind's newest version, not the group's preferred one: SQL's group prefers v1, its users' only
    // version, as Kubernetes ranks a plain v1 above any version named as the operator names its own.
    const version = catalog.find((e) => e.group === group && e.kind === kind)?.versions.at(-1)?.version;
    if (version === undefined) throw new Error(`the catalog has no ${group} ${kind}`);
    await client.request({
      method: 'POST',
      path: `/apis/${group}/${version}/namespaces/${ns}/${plural}`,
      body: {
        apiVersion: `${group}/${version}`,
        kind,
        metadata: { name, annotations },
        spec,
      },
      subject: { verb: 'create', resource: plural, namespace: ns },
    });
  }

  function writeOne(object: object): string {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'adopt-chain-')), 'one.yaml');
    writeFileSync(file, JSON.stringify(object));
    return file;
  }

  it('follows owners in the cluster that have no resource-id yet up their own chain, and stops at one that has', async () => {
    const pg = 'dbforpostgresql.azure.com';
    // rg-chain -> pg-chain, neither reconciled (no resource-id): the ID comes from their azureNames.
    await createInCluster('resources.azure.com', 'resourcegroups', 'ResourceGroup', 'rg-chain', {
      location: 'westus',
      azureName: 'rg-exists',
    });
    await createInCluster(pg, 'flexibleservers', 'FlexibleServer', 'pg-chain', {
      owner: { name: 'rg-chain' },
      location: 'westus',
      azureName: 'pg-chain-srv',
    });
    // pg-recorded says where ASO put it; its own owner (absent from the cluster) is never needed.
    await createInCluster(
      pg,
      'flexibleservers',
      'FlexibleServer',
      'pg-recorded',
      { owner: { name: 'rg-absent' }, location: 'westus', azureName: 'not-used' },
      { 'serviceoperator.azure.com/resource-id': pgId },
    );
    const env = { KUBECONFIG: testPlane().kubeconfig, NODE_EXTRA_CA_CERTS: emulator.env.NODE_EXTRA_CA_CERTS };
    const database = (name: string, owner: string) => ({
      apiVersion: `${pg}/v1api20221201`,
      kind: 'FlexibleServersDatabase',
      metadata: { name, namespace: ns },
      spec: { owner: { name: owner } },
    });
    const chained = await runCli(
      ['adopt-check', '-f', writeOne(database('db-chain', 'pg-chain')), '-o', 'json'],
      env,
    );
    expect(JSON.parse(chained.stdout).items[0]).toMatchObject({
      armId: `${pgChainId}/databases/db-chain`,
      outcome: 'create',
      exists: false,
    });
    expect(chained.code).toBe(0);
    const recorded = await runCli(
      ['adopt-check', '-f', writeOne(database('db-rec', 'pg-recorded')), '-o', 'json'],
      env,
    );
    expect(JSON.parse(recorded.stdout).items[0]).toMatchObject({ armId: `${pgId}/databases/db-rec` });
  });

  it('resolves references by name as the operator does (the files, then the cluster), reads config maps, and lists what it cannot resolve', async () => {
    const sql = 'sql.azure.com';
    const pg = 'dbforpostgresql.azure.com';
    const recordedSource = `${sqlId}/databases/db-recorded-in-azure`;
    await createInCluster(
      sql,
      'serversdatabases',
      'ServersDatabase',
      'db-src',
      { owner: { name: 'sqlsrv' }, location: 'westus' },
      { 'serviceoperator.azure.com/resource-id': recordedSource },
    );
    const client = await adminClient();
    await client.request({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'keys' },
        data: { uri: 'https://vault.example/keys/k1' },
      },
      subject: { verb: 'create', resource: 'configmaps', namespace: ns },
    });
    const at = (kind: string, group: string, version: string, name: string, spec: object) =>
      JSON.stringify({ apiVersion: `${group}/${version}`, kind, metadata: { name, namespace: ns }, spec });
    const database = (name: string, spec: object) =>
      at('ServersDatabase', sql, 'v1api20211101', name, {
        owner: { name: 'sqlsrv' },
        location: 'westus',
        ...spec,
      });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'adopt-refs-')), 'refs.yaml');
    writeFileSync(
      file,
      [
        at('ResourceGroup', 'resources.azure.com', 'v1api20200601', 'rg-exists', { location: 'westus' }),
        at('Server', sql, 'v1api20211101', 'sqlsrv', { owner: { name: 'rg-exists' }, location: 'westus' }),
        database('db-orig', {}),
        database('db-copy1', {
          createMode: 'Copy',
          sourceDatabaseReference: { group: sql, kind: 'ServersDatabase', name: 'db-src' },
        }),
        database('db-copy2', {
          createMode: 'Copy',
          sourceDatabaseReference: { group: sql, kind: 'ServersDatabase', name: 'db-orig' },
          elasticPoolReference: { group: sql, kind: 'ServersElasticPool', name: 'pool-nowhere' },
        }),
        at('FlexibleServer', pg, 'v1api20221201', 'pg', {
          owner: { name: 'rg-exists' },
          location: 'westus',
          version: '14',
          dataEncryption: { type: 'AzureKeyVault', primaryKeyURIFromConfig: { name: 'keys', key: 'uri' } },
        }),
      ].join('\n---\n'),
    );
    const env = { KUBECONFIG: testPlane().kubeconfig, NODE_EXTRA_CA_CERTS: emulator.env.NODE_EXTRA_CA_CERTS };
    const run = await runCli(['adopt-check', '-f', file, '-o', 'json'], env);
    const report = JSON.parse(run.stdout) as AdoptReport;
    const by = (name: string) => report.items.find((i) => i.name === name);
    // In the cluster: the ARM ID the operator recorded on the named object.
    expect(by('db-copy1')?.changes).toContainEqual(
      expect.objectContaining({ path: 'properties.sourceDatabaseId', to: recordedSource }),
    );
    expect(by('db-copy1')?.unmapped).toEqual([]);
    // In the same files: the ARM ID the operator will record for it.
    expect(by('db-copy2')?.changes).toContainEqual(
      expect.objectContaining({ path: 'properties.sourceDatabaseId', to: `${sqlId}/databases/db-orig` }),
    );
    // Nowhere: left out of the body and said, never guessed.
    expect(by('db-copy2')?.unmapped).toEqual(['spec.elasticPoolReference']);
    expect(JSON.stringify(by('db-copy2')?.changes)).not.toContain('elasticPoolId');
    // A config map key: read from the cluster, as the operator reads it.
    expect(by('pg')?.changes).toContainEqual({
      path: 'properties.dataEncryption',
      from: null,
      to: { primaryKeyURI: 'https://vault.example/keys/k1', type: 'AzureKeyVault' },
    });
    const writes = readFileSync(emulator.requestLogFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('/subscriptions/') && !line.startsWith('GET '));
    expect(writes).toEqual([]);
  });

  it('an owner cycle through the cluster is an error naming the chain (exit 9), not a hang', async () => {
    // Only extension owners are typed by the reference itself (group/kind), so only they can loop.
    const auth = 'authorization.azure.com';
    const owner = (name: string) => ({ group: auth, kind: 'RoleAssignment', name });
    const spec = (name: string) => ({
      owner: owner(name),
      principalId: '00000000-0000-0000-0000-0000000000aa',
      roleDefinitionReference: {
        armId: `/subscriptions/${sub}/providers/Microsoft.Authorization/roleDefinitions/r`,
      },
    });
    await createInCluster(auth, 'roleassignments', 'RoleAssignment', 'ra-loop-a', spec('ra-loop-b'));
    await createInCluster(auth, 'roleassignments', 'RoleAssignment', 'ra-loop-b', spec('ra-loop-a'));
    const run = await runCli(
      [
        'adopt-check',
        '-f',
        writeOne({
          apiVersion: `${auth}/v1api20220401`,
          kind: 'RoleAssignment',
          metadata: { name: 'ra-top', namespace: ns },
          spec: spec('ra-loop-a'),
        }),
      ],
      { KUBECONFIG: testPlane().kubeconfig, NODE_EXTRA_CA_CERTS: emulator.env.NODE_EXTRA_CA_CERTS },
    );
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('owner cycle');
    expect(run.stderr).toContain('ra-loop-a');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('follows an owner chain in the cluster no deeper than 16 levels, and says so', async () => {
    const auth = 'authorization.azure.com';
    const spec = (owner: object) => ({
      owner,
      principalId: '00000000-0000-0000-0000-0000000000bb',
      roleDefinitionReference: {
        armId: `/subscriptions/${sub}/providers/Microsoft.Authorization/roleDefinitions/r`,
      },
    });
    const link = (i: number) => ({ group: auth, kind: 'RoleAssignment', name: `ra-deep-${i}` });
    for (let i = 0; i < 18; i++)
      await createInCluster(
        auth,
        'roleassignments',
        'RoleAssignment',
        `ra-deep-${i}`,
        spec(i === 17 ? { armId: rgId } : link(i + 1)),
      );
    const run = await runCli(
      [
        'adopt-check',
        '-f',
        writeOne({
          apiVersion: `${auth}/v1api20220401`,
          kind: 'RoleAssignment',
          metadata: { name: 'ra-deep-top', namespace: ns },
          spec: spec(link(0)),
        }),
        '-o',
        'json',
      ],
      { KUBECONFIG: testPlane().kubeconfig, NODE_EXTRA_CA_CERTS: emulator.env.NODE_EXTRA_CA_CERTS },
    );
    const report = JSON.parse(run.stdout) as AdoptReport;
    expect(report.warnings).toContain(
      'owner chains deeper than 16 levels in the cluster were not followed further',
    );
    expect(report.items[0]).toMatchObject({ outcome: 'unknown' });
    expect(report.items[0]?.reason).toContain('ra-deep-16');
    expect(run.code).toBe(10);
  });

  it('with --credential local rides out a 429 storm (Retry-After) and reaches every answer', async () => {
    const { startArmEmulator } = (await import(emulatorModule)) as {
      startArmEmulator: (o: unknown) => Promise<Emulator>;
    };
    const stormy = await startArmEmulator({
      throttleFraction: 0.3,
      seed: [
        { id: rgId, apiVersion: '2020-06-01', body: { location: 'westus' } },
        { id: pgId, apiVersion: '2022-12-01', body: { location: 'westus', properties: { version: '14' } } },
      ],
    });
    try {
      const run = await runCli(
        ['adopt-check', '-f', file, '-o', 'json', '--credential', 'local', '--subscription', sub],
        {
          KUBECONFIG: testPlane().kubeconfig,
          ...stormy.env,
        },
      );
      const report = JSON.parse(run.stdout) as AdoptReport;
      expect(report.items.find((i) => i.name === 'pg')).toMatchObject({ outcome: 'adopt-manage' });
      expect(report.items.find((i) => i.name === 'newdb')).toMatchObject({ outcome: 'create' });
      expect(report.items.filter((i) => i.outcome === 'unknown')).toEqual([]);
      const log = readFileSync(stormy.requestLogFile, 'utf8');
      expect(log).toMatch(/ 429/);
      expect(run.code).toBe(0);
    } finally {
      await stormy.stop();
    }
  }, 60_000);
});
