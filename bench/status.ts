// `npm run bench:status`: `kubectl aso status -A -o json` (and `-o table`) against what a user runs today, on a local control
// plane holding 10,000 ASO-like objects across 12 kinds and 50 namespaces, and on one holding the 12 kinds
// and no objects. Prints medians, ratios against the targets, and the plugin's peak memory.
//
// The planes live in .local/bench-status and .local/bench-status-empty and are reused: creating the objects
// takes a minute or two once; later runs only measure. `--down` stops both planes and removes their data.
// `--runs N` sets the measured runs of each command (default 5).
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KubeClient } from '../src/lib/kube/client.ts';
import { Conflict } from '../src/lib/kube/errors.ts';
import { resourcePath } from '../src/lib/kube/paths.ts';
import { applyObject, type Placement, waitForEstablished } from '../test/control-plane/apply.ts';
import { clientFor, startPlane, stopPlane } from '../test/control-plane/plane.ts';
import { type Contender, race, report, verdict } from './race.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const fullDir = join(root, '.local/bench-status');
const emptyDir = join(root, '.local/bench-status-empty');
const bin = join(root, 'bin/kubectl-aso');
const objects = 10_000;
const kindCount = 12;
const namespaceCount = 50;
const group = 'benchstatus.azure.com';
const version = 'v1api20240101';
const kindNames = [
  'ResourceGroup',
  'StorageAccount',
  'Vault',
  'FlexibleServer',
  'FlexibleServersDatabase',
  'RedisCache',
  'VirtualNetwork',
  'Subnet',
  'ManagedCluster',
  'UserAssignedIdentity',
  'RoleAssignment',
  'PrivateEndpoint',
].slice(0, kindCount);

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5;

function placementOf(kind: string): Placement {
  return { group, version, plural: `${kind.toLowerCase()}s`, namespaced: true };
}

async function applyCrds(admin: KubeClient): Promise<void> {
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  for (const kind of kindNames) {
    const plural = `${kind.toLowerCase()}s`;
    await applyObject(admin, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
        versions: [
          {
            name: version,
            served: true,
            storage: true,
            schema,
            subresources: { status: {} },
            additionalPrinterColumns: [
              { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
              {
                name: 'Severity',
                type: 'string',
                jsonPath: ".status.conditions[?(@.type=='Ready')].severity",
              },
              { name: 'Reason', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].reason" },
              { name: 'Message', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].message" },
            ],
          },
        ],
      },
    });
  }
  for (const kind of kindNames) await waitForEstablished(admin, `${kind.toLowerCase()}s.${group}`);
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
    message: 'Owner "rg-1" cannot be found. Progress is blocked until the owner is created.',
  },
  {
    status: 'False',
    severity: 'Error',
    reason: 'AuthorizationFailed',
    message:
      "The client '00000000-0000-0000-0000-000000000000' with object id '00000000-0000-0000-0000-000000000000' does not have authorization to perform action",
  },
];

/** One object, about the size of a small real ASO resource: owner, location, tags, an id, a condition. */
async function createOne(admin: KubeClient, index: number): Promise<void> {
  const kind = kindNames[index % kindCount] as string;
  const placement = placementOf(kind);
  const namespace = `bench-${Math.floor(index / kindCount) % namespaceCount}`;
  const name = `obj-${index}`;
  const ready = readies[index % readies.length] as (typeof readies)[number];
  try {
    await admin.request({
      method: 'POST',
      path: resourcePath(placement, namespace),
      body: {
        apiVersion: `${group}/${version}`,
        kind,
        metadata: { name, namespace, labels: { app: `app-${index % 20}`, tier: 'bench' } },
        spec: {
          azureName: name,
          location: 'westus2',
          owner: { name: `rg-${index % 50}` },
          tags: { env: 'bench', team: `team-${index % 7}`, costCenter: '1234' },
        },
      },
      subject: { verb: 'create', resource: placement.plural, namespace },
    });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
  }
  await admin.request({
    method: 'PATCH',
    path: resourcePath(placement, namespace, name, 'status'),
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-${index % 50}/providers/Microsoft.Bench/${kind}/${name}`,
        provisioningState: ready.status === 'True' ? 'Succeeded' : 'Updating',
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
    subject: { verb: 'patch', resource: `${placement.plural}/status`, namespace },
  });
}

async function populate(admin: KubeClient): Promise<void> {
  for (let index = 0; index < namespaceCount; index++) {
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `bench-${index}` } });
  }
  const started = Date.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: 24 }, async () => {
      while (next < objects) {
        await createOne(admin, next++);
        if (++done % 1000 === 0) process.stderr.write(`  created ${done}/${objects}\n`);
      }
    }),
  );
  process.stderr.write(`  created ${objects} objects in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

async function main(): Promise<void> {
  if (args.includes('--down')) {
    await stopPlane(fullDir);
    await stopPlane(emptyDir);
    console.log('bench planes stopped and removed');
    return;
  }
  if (!existsSync(join(root, 'dist'))) throw new Error('build first: npm run build');
  const kinds = kindNames.map((kind) => `${kind.toLowerCase()}s.${group}`).join(',');
  const contenders = (withObjects: boolean): Contender[] => [
    {
      label: 'kubectl aso status -A -o json',
      command: process.execPath,
      args: [bin, 'status', '-A', '-o', 'json'],
    },
    { label: 'kubectl get <12 kinds> -A', command: 'kubectl', args: ['get', kinds, '-A'] },
    ...(withObjects
      ? [
          {
            label: 'kubectl aso status -A -o table',
            command: process.execPath,
            args: [bin, 'status', '-A', '-o', 'table'],
          },
          {
            label: 'kubectl get <12 kinds> -A -o json',
            command: 'kubectl',
            args: ['get', kinds, '-A', '-o', 'json'],
          },
        ]
      : []),
  ];

  process.stderr.write('empty plane: 12 kinds, no objects\n');
  const empty = await startPlane(emptyDir);
  await applyCrds(await clientFor(empty));
  const emptyResults = await race(contenders(false), empty.kubeconfig, runs);
  await stopPlane(emptyDir);

  process.stderr.write(`full plane: ${objects} objects, ${kindCount} kinds, ${namespaceCount} namespaces\n`);
  const full = await startPlane(fullDir);
  const admin = await clientFor(full);
  const marker = join(fullDir, 'populated');
  if (!existsSync(marker)) {
    await applyCrds(admin);
    await populate(admin);
    writeFileSync(marker, `${objects}\n`);
  }
  const fullResults = await race(contenders(true), full.kubeconfig, runs);

  console.log(
    `\nbench/status: ${runs} runs each after one warm-up; node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(`\n${objects} objects, ${kindCount} kinds, ${namespaceCount} namespaces:`);
  const f = report(fullResults, 48);
  console.log('\n12 kinds, no objects:');
  const e = report(emptyResults, 48);
  const plugin = f.get('kubectl aso status -A -o json') as number;
  const rss =
    Math.max(...(fullResults.get('kubectl aso status -A -o json') ?? []).map((m) => m.maxRssKb)) / 1024;
  console.log('\nratios:');
  console.log(
    verdict(
      'status -A -o json / kubectl get -A',
      plugin / (f.get('kubectl get <12 kinds> -A') as number),
      1.0,
    ),
  );
  console.log(
    verdict(
      'status -A -o json / kubectl get -A -o json',
      plugin / (f.get('kubectl get <12 kinds> -A -o json') as number),
      0.75,
    ),
  );
  console.log(
    verdict(
      'status -A -o table / kubectl get -A',
      (f.get('kubectl aso status -A -o table') as number) / (f.get('kubectl get <12 kinds> -A') as number),
      1.0,
    ),
  );
  console.log(
    verdict(
      'empty: status -A -o json / kubectl get -A',
      (e.get('kubectl aso status -A -o json') as number) / (e.get('kubectl get <12 kinds> -A') as number),
      1.2,
    ),
  );
  if (!Number.isNaN(rss)) {
    console.log(
      `  ${'plugin peak RSS (MB)'.padEnd(60)} ${rss.toFixed(0)}     (target <= 300) ${rss <= 300 ? 'PASS' : 'MISS'}`,
    );
  }
  console.log(
    `\nthe full plane stays up for the next run (.local/bench-status); stop it with: node bench/status.ts --down`,
  );
}

await main();
