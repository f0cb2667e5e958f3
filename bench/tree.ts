// `npm run bench:tree`: `kubectl aso tree -A` (`-o json` and `-o table`) against `kubectl get <kinds> -A -o json`
// of the same kinds, on a local control plane carrying six real ASO v2.20.0 CRDs (../shared/real-aso-crds)
// and 10,000 objects across 100 namespaces whose specs point at each other as real ones do: resource groups
// own PostgreSQL flexible servers and identities, servers own databases and firewall rules, role
// assignments are extensions on resource groups reading a config map the identities export; servers read an
// admin-password secret (half of them missing) and some databases and rules name an owner that is gone.
// The real CRDs matter: the graph finds its reference paths in their schemas, not in a list of its own.
// Prints medians, the ratios against the 1.5x target, and the plugin's peak memory.
//
// The plane lives in .local/bench-tree and is reused: creating the objects takes a few minutes once; later
// runs only measure. `--down` stops it and removes its data. `--runs N` sets the measured runs (default 5).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { KubeClient } from '../src/lib/kube/client.ts';
import { Conflict } from '../src/lib/kube/errors.ts';
import type { KubeObject } from '../src/lib/kube/list.ts';
import { resourcePath } from '../src/lib/kube/paths.ts';
import { applyObject, type Placement, waitForEstablished } from '../test/control-plane/apply.ts';
import { clientFor, startPlane, stopPlane } from '../test/control-plane/plane.ts';
import { type Contender, race, report, verdict } from './race.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const stateDir = join(root, '.local/bench-tree');
const bin = join(root, 'bin/kubectl-aso');
const realCrds = resolve(
  process.env.KUBECTL_ASO_SHARED_DIR ?? join(root, '..', 'shared'),
  'real-aso-crds/v2.20.0',
);
const namespaceCount = 100;
const perNamespace = 100;
const objects = namespaceCount * perNamespace;

/** One bench kind: its real CRD file and the version the objects are written at. */
interface BenchKind extends Placement {
  kind: string;
  file: string;
}

function benchKind(group: string, version: string, kind: string, plural: string): BenchKind {
  return { group, version, kind, plural, namespaced: true, file: `${group}_${plural}.yaml` };
}

const resourceGroup = benchKind('resources.azure.com', 'v1api20200601', 'ResourceGroup', 'resourcegroups');
const server = benchKind('dbforpostgresql.azure.com', 'v20250801', 'FlexibleServer', 'flexibleservers');
const database = benchKind(
  'dbforpostgresql.azure.com',
  'v20250801',
  'FlexibleServersDatabase',
  'flexibleserversdatabases',
);
const firewallRule = benchKind(
  'dbforpostgresql.azure.com',
  'v20250801',
  'FlexibleServersFirewallRule',
  'flexibleserversfirewallrules',
);
const identity = benchKind(
  'managedidentity.azure.com',
  'v1api20230131',
  'UserAssignedIdentity',
  'userassignedidentities',
);
const roleAssignment = benchKind(
  'authorization.azure.com',
  'v1api20220401',
  'RoleAssignment',
  'roleassignments',
);
const benchKinds = [resourceGroup, server, database, firewallRule, identity, roleAssignment];

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5;

async function applyCrds(admin: KubeClient): Promise<void> {
  for (const kind of benchKinds) {
    await applyObject(admin, parse(readFileSync(join(realCrds, kind.file), 'utf8')) as KubeObject);
  }
  for (const kind of benchKinds) await waitForEstablished(admin, `${kind.plural}.${kind.group}`, 120_000);
}

/** One object to create: its kind, namespace, name and spec. */
interface Planned {
  kind: BenchKind;
  namespace: string;
  name: string;
  spec: Record<string, unknown>;
}

const roleDefinition =
  '/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Authorization/roleDefinitions/b24988ac-6180-42a0-ab88-20f7382dd24c';

/**
 * The 100 objects of one namespace: 4 resource groups; 8 servers (2 per group); 40 databases and 24
 * firewall rules (5 and 3 per server, the last of each owned by a server that does not exist); 12 identities
 * (3 per group) and 12 role assignments on the groups, each reading one identity's exported config map.
 */
function planNamespace(namespace: string): Planned[] {
  const planned: Planned[] = [];
  const add = (kind: BenchKind, name: string, spec: Record<string, unknown>) =>
    planned.push({ kind, namespace, name, spec });
  for (let g = 0; g < 4; g++) add(resourceGroup, `rg-${g}`, { location: 'westus2' });
  for (let s = 0; s < 8; s++) {
    add(server, `pg-${s}`, {
      location: 'westus2',
      owner: { name: `rg-${Math.floor(s / 2)}` },
      version: '16',
      administratorLogin: 'benchadmin',
      administratorLoginPassword: { name: `pg-admin-${s}`, key: 'password' },
      sku: { name: 'Standard_B1ms', tier: 'Burstable' },
      operatorSpec: { secrets: { fullyQualifiedDomainName: { name: `pg-conn-${s}`, key: 'host' } } },
    });
  }
  for (let d = 0; d < 40; d++) {
    add(database, `db-${d}`, {
      owner: { name: d === 39 ? 'pg-gone' : `pg-${Math.floor(d / 5)}` },
      charset: 'UTF8',
      collation: 'en_US.utf8',
    });
  }
  for (let f = 0; f < 24; f++) {
    add(firewallRule, `fw-${f}`, {
      owner: { name: f === 23 ? 'pg-gone' : `pg-${Math.floor(f / 3)}` },
      startIpAddress: `10.0.${f}.1`,
      endIpAddress: `10.0.${f}.254`,
    });
  }
  for (let i = 0; i < 12; i++) {
    add(identity, `id-${i}`, {
      location: 'westus2',
      owner: { name: `rg-${Math.floor(i / 3)}` },
      operatorSpec: { configMaps: { principalId: { name: `id-${i}-ids`, key: 'principalId' } } },
    });
  }
  for (let r = 0; r < 12; r++) {
    add(roleAssignment, `ra-${r}`, {
      owner: { group: 'resources.azure.com', kind: 'ResourceGroup', name: `rg-${Math.floor(r / 3)}` },
      principalIdFromConfig: { name: `id-${r}-ids`, key: 'principalId' },
      roleDefinitionReference: { armId: roleDefinition },
    });
  }
  return planned;
}

const readies = [
  { status: 'True', severity: '', reason: 'Succeeded', message: '' },
  { status: 'True', severity: '', reason: 'Succeeded', message: '' },
  { status: 'True', severity: '', reason: 'Succeeded', message: '' },
  {
    status: 'False',
    severity: 'Info',
    reason: 'Reconciling',
    message: 'The resource is in the process of being reconciled by the operator',
  },
  {
    status: 'False',
    severity: 'Warning',
    reason: 'WaitingForOwner',
    message: 'Owner "pg-gone" cannot be found. Progress is blocked until the owner is created.',
  },
];

async function createOne(admin: KubeClient, planned: Planned, index: number): Promise<void> {
  const { kind, namespace, name } = planned;
  try {
    await admin.request({
      method: 'POST',
      path: resourcePath(kind, namespace),
      body: {
        apiVersion: `${kind.group}/${kind.version}`,
        kind: kind.kind,
        metadata: { name, namespace, labels: { app: `app-${index % 20}`, tier: 'bench' } },
        spec: planned.spec,
      },
      subject: { verb: 'create', resource: kind.plural, namespace },
    });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
  }
  const ready = readies[index % readies.length] as (typeof readies)[number];
  await admin.request({
    method: 'PATCH',
    path: resourcePath(kind, namespace, name, 'status'),
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/${namespace}/providers/Microsoft.Bench/${kind.plural}/${name}`,
        conditions: [
          {
            type: 'Ready',
            ...ready,
            observedGeneration: 1,
            lastTransitionTime: new Date(Date.now() - (index % 1000) * 60_000)
              .toISOString()
              .replace(/\.\d+Z$/, 'Z'),
          },
        ],
      },
    },
    subject: { verb: 'patch', resource: `${kind.plural}/status`, namespace },
  });
}

async function populate(admin: KubeClient): Promise<void> {
  const planned: Planned[] = [];
  for (let n = 0; n < namespaceCount; n++) {
    const namespace = `tree-${n}`;
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    // Half the servers' admin secrets exist; two identities in three have exported their config map.
    for (let s = 0; s < 8; s += 2) {
      await applyObject(admin, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `pg-admin-${s}`, namespace },
        stringData: { password: 'not-a-real-password' },
      } as KubeObject);
    }
    for (let i = 0; i < 12; i++) {
      if (i % 3 === 2) continue;
      await applyObject(admin, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `id-${i}-ids`, namespace },
        data: { principalId: '00000000-0000-0000-0000-000000000000' },
      } as KubeObject);
    }
    planned.push(...planNamespace(namespace));
  }
  const started = Date.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: 24 }, async () => {
      while (next < planned.length) {
        const index = next++;
        await createOne(admin, planned[index] as Planned, index);
        if (++done % 1000 === 0) process.stderr.write(`  created ${done}/${planned.length}\n`);
      }
    }),
  );
  process.stderr.write(
    `  created ${planned.length} objects in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

async function main(): Promise<void> {
  if (args.includes('--down')) {
    await stopPlane(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
    console.log('bench plane stopped and removed');
    return;
  }
  if (!existsSync(realCrds)) throw new Error(`bench:tree needs the real ASO CRDs at ${realCrds}`);
  if (!existsSync(join(root, 'dist'))) throw new Error('build first: npm run build');
  const kinds = benchKinds.map((kind) => `${kind.plural}.${kind.group}`).join(',');
  const json = 'kubectl aso tree -A -o json';
  const table = 'kubectl aso tree -A -o table';
  const baseline = `kubectl get <${benchKinds.length} kinds> -A -o json`;
  const contenders: Contender[] = [
    { label: json, command: process.execPath, args: [bin, 'tree', '-A', '-o', 'json'] },
    { label: table, command: process.execPath, args: [bin, 'tree', '-A', '-o', 'table'] },
    { label: baseline, command: 'kubectl', args: ['get', kinds, '-A', '-o', 'json'] },
  ];

  process.stderr.write(
    `plane: ${objects} objects, ${benchKinds.length} kinds, ${namespaceCount} namespaces\n`,
  );
  const plane = await startPlane(stateDir);
  const admin = await clientFor(plane);
  const marker = join(stateDir, 'populated');
  if (!existsSync(marker)) {
    await applyCrds(admin);
    await populate(admin);
    writeFileSync(marker, `${objects}\n`);
  }
  const results = await race(contenders, plane.kubeconfig, runs);

  console.log(
    `\nbench/tree: ${runs} runs each after one warm-up; node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(
    `\n${objects} objects, ${benchKinds.length} kinds (real v2.20.0 CRDs), ${namespaceCount} namespaces:`,
  );
  const medians = report(results, 40);
  const against = medians.get(baseline) as number;
  console.log('\nratios:');
  console.log(
    verdict('tree -A -o json / kubectl get -A -o json', (medians.get(json) as number) / against, 1.5, 52),
  );
  console.log(
    verdict('tree -A -o table / kubectl get -A -o json', (medians.get(table) as number) / against, 1.5, 52),
  );
  const rss = Math.max(...[json, table].flatMap((label) => results.get(label) ?? []).map((m) => m.maxRssKb));
  if (!Number.isNaN(rss)) console.log(`  ${'plugin peak RSS (MB)'.padEnd(52)} ${(rss / 1024).toFixed(0)}`);
  console.log(
    `\nthe plane stays up for the next run (.local/bench-tree); stop it with: node bench/tree.ts --down`,
  );
}

await main();
