import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphReport } from '../../src/lib/graph/report.ts';
import { watchGraph } from '../../src/lib/graph/watch.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { applyObject } from '../control-plane/apply.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  adminClient,
  auditEvents,
  freshNamespace,
  testPlane,
  uniqueSuffix,
  userKubeconfig,
} from '../fixtures/cluster.ts';
import { applyGraphCrds, createAso, ready, v220Crds } from '../lib/graph/fixtures.ts';
import type { TestKind } from '../lib/status/fixtures.ts';

/** The drawn NAME cells of a table: everything left of the STATE column. */
function nameCells(stdout: string): string[] {
  const lines = stdout.trimEnd().split('\n');
  const column = (lines[0] ?? '').indexOf('STATE');
  return lines
    .slice(1)
    .filter((line) => !line.startsWith('cycle: '))
    .map((line) => line.slice(0, column).trimEnd());
}

function tree(args: string[], env: Record<string, string> = {}, kubeconfig = testPlane().kubeconfig) {
  return runCli(['tree', ...args], { KUBECONFIG: kubeconfig, ...env });
}

const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;
const subscription = '/subscriptions/00000000-0000-0000-0000-000000000001';
const subnet = `${subscription}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/db`;
const longMessage = `${'The server could not be created because the quota for PostgreSQL flexible servers in westus is exhausted; '.repeat(3)}RequestId: 0f1e2d3c`;

describe.runIf(v220Crds.present)('kubectl aso tree on the real control plane', () => {
  let kinds: Record<string, TestKind>;
  let ns: string;
  const rgId = `${subscription}/resourceGroups/rg`;

  beforeAll(async () => {
    kinds = await applyGraphCrds();
    ns = await freshNamespace('tree');
    const [rg, server, db] = [kinds.ResourceGroup, kinds.FlexibleServer, kinds.FlexibleServersDatabase] as [
      TestKind,
      TestKind,
      TestKind,
    ];
    await createAso(rg, ns, 'rg', { location: 'westus' }, { ...ready('True', '', 'Succeeded'), id: rgId });
    await createAso(
      server,
      ns,
      'pg',
      {
        owner: { name: 'rg' },
        location: 'westus',
        administratorLoginPassword: { name: 'pg-admin', key: 'password' },
        network: { delegatedSubnetResourceReference: { armId: subnet } },
        operatorSpec: { configMaps: { fullyQualifiedDomainName: { name: 'pg-out', key: 'host' } } },
      },
      ready('False', 'Warning', 'QuotaExceeded', longMessage),
    );
    await createAso(
      db,
      ns,
      'db',
      { owner: { name: 'pg' } },
      ready('False', 'Info', 'WaitingForOwner', 'owner pg is not Ready'),
    );
    await createAso(db, ns, 'orphan', { owner: { name: 'nosuch' } });
  });

  it('draws the owner chain of KIND/NAME down to it, with missing secrets and ARM IDs, in JSON', async () => {
    const run = await tree(['FlexibleServersDatabase/db', '-n', ns, '-o', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as GraphReport;
    const node = (kind: string, name: string) => report.nodes.find((n) => n.kind === kind && n.name === name);
    expect(report.targets).toEqual([node('FlexibleServersDatabase', 'db')?.id]);
    expect(node('ResourceGroup', 'rg')).toMatchObject({ state: 'Ready', armId: rgId, presence: 'present' });
    expect(node('FlexibleServer', 'pg')).toMatchObject({
      state: 'Warning',
      reason: 'QuotaExceeded',
      message: longMessage,
    });
    expect(node('Secret', 'pg-admin')?.presence).toBe('missing');
    expect(node('ConfigMap', 'pg-out')?.presence).toBe('missing');
    expect(node('FlexibleServer', 'nosuch')?.presence).toBe('missing');
    expect(report.nodes.find((n) => n.type === 'arm')).toMatchObject({ name: subnet, presence: 'external' });
    const relations = report.edges
      .filter((e) => e.from === node('FlexibleServer', 'pg')?.id)
      .map((e) => `${e.relation} ${e.at}`);
    expect(relations.sort()).toEqual([
      'exportConfigMap spec.operatorSpec.configMaps.fullyQualifiedDomainName',
      'owner spec.owner',
      'reference spec.network.delegatedSubnetResourceReference',
      'secret spec.administratorLoginPassword',
    ]);
  });

  it('takes the kind as kubectl does and draws the tree with state, severity, reason, age and ARM ID', async () => {
    for (const kind of [
      'flexibleserversdatabases',
      'FLEXIBLESERVERSDATABASE',
      `flexibleserversdatabase.${kinds.FlexibleServersDatabase?.group}`,
    ]) {
      const run = await tree([`${kind}/db`, '-n', ns]);
      expect(run.code).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+STATE\s+SEVERITY\s+REASON\s+AGE\s+ARM ID$/);
      const names = nameCells(run.stdout);
      expect(names).toEqual([
        'ResourceGroup/rg',
        '└─ FlexibleServer/pg',
        '   ├─ Secret/pg-admin (reads it at spec.administratorLoginPassword)',
        '   ├─ Microsoft.Network/virtualNetworks/subnets/db (refers to it at spec.network.delegatedSubnetResourceReference)',
        '   ├─ ConfigMap/pg-out (writes it at spec.operatorSpec.configMaps.fullyQualifiedDomainName)',
        '   └─ FlexibleServersDatabase/db',
      ]);
      expect(lines[1]).toMatch(new RegExp(`Ready\\s+Succeeded\\s+2m\\d*s?\\s+${rgId}$`));
      expect(lines[2]).toMatch(/Warning\s+Warning\s+QuotaExceeded\s+2m/);
      expect(lines[3]).toMatch(/Missing$/);
    }
  });

  it('-o wide prints each message in full, wrapped to the terminal width, never cut', async () => {
    const run = await tree(['FlexibleServer/pg', '-n', ns, '-o', 'wide'], { COLUMNS: '60' });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const start = lines.findIndex((line) => line.startsWith('└─ FlexibleServer/pg'));
    const messageLines = lines.slice(start + 1).filter((line) => /^ {3}│ {2}\S/.test(line));
    expect(messageLines.length).toBeGreaterThan(4);
    for (const line of messageLines) expect(line.length).toBeLessThanOrEqual(60);
    // The guide down to the server's children runs through its message.
    expect(messageLines.map((line) => line.slice(6)).join(' ')).toBe(longMessage);
  });

  it('-n draws every object under its owner, a missing owner included', async () => {
    const run = await tree(['-n', ns]);
    expect(run.code).toBe(0);
    const names = nameCells(run.stdout);
    expect(names).toContain('FlexibleServer/nosuch');
    expect(names[names.indexOf('FlexibleServer/nosuch') + 1]).toBe('└─ FlexibleServersDatabase/orphan');
    expect(run.stdout).toMatch(/FlexibleServer\/nosuch\s+Missing/);
    // Tops are ordered by kind: the missing server (and its orphan) before the resource group.
    expect(names.filter((name) => !/^[ │├└]/.test(name))).toEqual([
      'FlexibleServer/nosuch',
      'ResourceGroup/rg',
    ]);
  });

  it('-f draws the objects of a file, and warns of one not in the cluster', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tree-'));
    const file = join(dir, 'app.yaml');
    const group = kinds.FlexibleServersDatabase?.group;
    writeFileSync(
      file,
      [
        `apiVersion: ${group}/v20250801\nkind: FlexibleServersDatabase\nmetadata:\n  name: db\n  namespace: ${ns}\nspec:\n  owner:\n    name: pg\n`,
        `apiVersion: ${group}/v20250801\nkind: FlexibleServersDatabase\nmetadata:\n  name: later\n  namespace: ${ns}\nspec:\n  owner:\n    name: pg\n`,
      ].join('---\n'),
    );
    const run = await tree(['-f', file]);
    // The README shows this run's output: TREE_README=FILE writes it there to copy.
    if (process.env.TREE_README)
      writeFileSync(
        process.env.TREE_README,
        (await tree(['-f', file, '-o', 'wide'], { COLUMNS: '100' })).stdout,
      );
    expect(run.code).toBe(10);
    expect(run.stderr).toContain(`FlexibleServersDatabase/later from ${file}#2 is not in namespace ${ns}`);
    expect(nameCells(run.stdout).at(-1)).toBe('   └─ FlexibleServersDatabase/db');
  });

  it('prints Graphviz and Mermaid with every node and edge', async () => {
    const dot = await tree(['-n', ns, '-o', 'dot']);
    expect(dot.code).toBe(0);
    expect(dot.stdout).toMatch(/^digraph aso \{/);
    const json = JSON.parse((await tree(['-n', ns, '-o', 'json'])).stdout) as GraphReport;
    expect(dot.stdout.match(/ -> /g)).toHaveLength(json.edges.length);
    expect(dot.stdout).toContain('style=dashed, color=red');
    const mermaid = await tree(['-n', ns, '-o', 'mermaid']);
    expect(mermaid.stdout.split('\n')[0]).toBe('flowchart BT');
    expect(mermaid.stdout.match(/ -->\|/g)).toHaveLength(json.edges.length);
  });

  it('--watch redraws when a condition changes, and stops cleanly on SIGINT', async () => {
    const watched = await freshNamespace('tree-watch');
    const rg = kinds.ResourceGroup as TestKind;
    await createAso(rg, watched, 'w', { location: 'westus' }, ready('False', 'Info', 'Reconciling'));
    const child = spawn(process.execPath, [bin, 'tree', '-n', watched, '--watch'], {
      env: { ...process.env, KUBECONFIG: testPlane().kubeconfig, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const until = async (done: () => boolean): Promise<void> => {
      for (let waited = 0; !done(); waited += 100) {
        if (waited > 30_000) throw new Error(`timed out; stdout so far:\n${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(() => /ResourceGroup\/w\s+Progressing/.test(stdout));
    await createAso(rg, watched, 'w', { location: 'westus' }, ready('True', '', 'Succeeded'));
    await until(() => /ResourceGroup\/w\s+Ready/.test(stdout));
    expect(stdout.match(/^NAME/gm)).toHaveLength(2);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('--watch draws a change made before its watches have started, not only later ones', async () => {
    const watched = await freshNamespace('tree-watch-early');
    const rg = kinds.ResourceGroup as TestKind;
    await createAso(rg, watched, 'e', { location: 'westus' }, ready('False', 'Info', 'Reconciling'));
    const views: string[] = [];
    const stop = new AbortController();
    let first = true;
    const watching = watchGraph(
      await adminClient(),
      { namespace: watched },
      {
        // The change lands right after the first view is read, before any watch has listed: the window a
        // busy machine opens wide.
        draw: async (report) => {
          if (first) {
            first = false;
            await createAso(rg, watched, 'e', { location: 'westus' }, ready('True', '', 'Succeeded'));
          }
          return JSON.stringify(report);
        },
        write: (text) => views.push(text),
        warn: () => {},
        signal: stop.signal,
        settleMs: 50,
      },
    );
    try {
      for (let waited = 0; !views.some((v) => v.includes('Succeeded')); waited += 100) {
        if (waited > 20_000) throw new Error(`the change was never drawn; views: ${views.length}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(views[0]).toContain('Reconciling');
      expect(views).toHaveLength(2);
    } finally {
      stop.abort();
      await watching;
    }
  });

  it('names bad input with its exit code: no such object, a kind that is not ASO, an unknown kind, no slash', async () => {
    const missing = await tree(['FlexibleServersDatabase/nope', '-n', ns]);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toContain(`FlexibleServersDatabase/nope not found in namespace ${ns}`);
    const pods = await tree(['pods/x', '-n', ns]);
    expect(pods.code).toBe(9);
    expect(pods.stderr).toContain('pods names pods, which is not an ASO resource type');
    const unknown = await tree(['nosuchkind/x', '-n', ns]);
    expect(unknown.code).toBe(7);
    const bare = await tree(['db', '-n', ns]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('"db" is not KIND/NAME');
    expect((await tree(['-A', 'FlexibleServer/pg'])).code).toBe(2);
  });

  it('refuses an owner chain deeper than the operator resolves, and names a cycle of owners', async () => {
    const deep = await freshNamespace('tree-deep');
    const rg = kinds.ResourceGroup as TestKind;
    const admin = await adminClient();
    let previous: KubeObject | undefined;
    for (let level = 0; level < 18; level++) {
      const ownerReferences = previous
        ? [
            {
              apiVersion: `${rg.group}/${rg.version}`,
              kind: 'ResourceGroup',
              name: previous.metadata.name,
              uid: previous.metadata.uid,
            },
          ]
        : undefined;
      previous = await applyObject(
        admin,
        {
          apiVersion: `${rg.group}/${rg.version}`,
          kind: 'ResourceGroup',
          metadata: {
            name: `level-${level}`,
            namespace: deep,
            ...(ownerReferences ? { ownerReferences } : {}),
          },
          spec: { location: 'westus' },
        } as KubeObject,
        rg,
      );
    }
    const tooDeep = await tree(['ResourceGroup/level-17', '-n', deep]);
    expect(tooDeep.code).toBe(9);
    expect(tooDeep.stderr).toContain(
      'ResourceGroup/level-17: the owner chain is 17 objects deep, deeper than the 16',
    );
    expect((await tree(['ResourceGroup/level-10', '-n', deep])).code).toBe(0);

    const loop = await freshNamespace('tree-cycle');
    const make = (name: string, owner?: KubeObject) =>
      applyObject(
        admin,
        {
          apiVersion: `${rg.group}/${rg.version}`,
          kind: 'ResourceGroup',
          metadata: {
            name,
            namespace: loop,
            ...(owner
              ? {
                  ownerReferences: [
                    {
                      apiVersion: `${rg.group}/${rg.version}`,
                      kind: 'ResourceGroup',
                      name: owner.metadata.name,
                      uid: owner.metadata.uid,
                    },
                  ],
                }
              : {}),
          },
          spec: { location: 'westus' },
        } as KubeObject,
        rg,
      );
    const a = await make('a');
    const b = await make('b', a);
    await admin.request({
      method: 'PATCH',
      path: `/apis/${rg.group}/${rg.version}/namespaces/${loop}/${rg.plural}/a`,
      contentType: 'application/merge-patch+json',
      body: {
        metadata: {
          ownerReferences: [
            {
              apiVersion: `${rg.group}/${rg.version}`,
              kind: 'ResourceGroup',
              name: 'b',
              uid: b.metadata.uid,
            },
          ],
        },
      },
      subject: { verb: 'patch', resource: rg.plural, namespace: loop },
    });
    const cycle = await tree(['-n', loop]);
    expect(cycle.code).toBe(0);
    expect(cycle.stdout).toContain('cycle: ResourceGroup/a -> ResourceGroup/b -> ResourceGroup/a');
    expect(cycle.stdout).toContain('ResourceGroup/a (drawn above)');
  });

  it('with secrets hidden by RBAC, marks them unknown with a warning, exits partial, and writes nothing', async () => {
    const user = `tree-partial-${uniqueSuffix()}`;
    const admin = await adminClient();
    const rbac = 'rbac.authorization.k8s.io';
    const groups = Object.values(kinds).map((kind) => kind.group);
    await applyObject(admin, {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: user, namespace: ns },
      rules: [{ apiGroups: groups, resources: ['*'], verbs: ['get', 'list'] }],
    });
    await applyObject(admin, {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: user, namespace: ns },
      roleRef: { apiGroup: rbac, kind: 'Role', name: user },
      subjects: [{ kind: 'User', name: user, apiGroup: rbac }],
    });
    await applyObject(admin, {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: user },
      rules: [
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['list'] },
      ],
    });
    await applyObject(admin, {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: user },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: user },
      subjects: [{ kind: 'User', name: user, apiGroup: rbac }],
    });
    const kubeconfig = userKubeconfig(user);
    // The API server's authorizer learns of a new Role a moment later (seen under CI load: every granted
    // group still forbidden): run again while a group the Role grants is refused, for a few seconds at most.
    const granted = new RegExp(
      `cannot list [a-z]+\\.(${groups.map((g) => g.replaceAll('.', '\\.')).join('|')}) `,
    );
    let run = await tree(['FlexibleServersDatabase/db', '-n', ns, '-o', 'json'], {}, kubeconfig);
    for (let attempt = 0; attempt < 20 && granted.test(run.stderr); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      run = await tree(['FlexibleServersDatabase/db', '-n', ns, '-o', 'json'], {}, kubeconfig);
    }
    expect(run.stderr).not.toMatch(granted);
    expect(run.code).toBe(10);
    // Only the lines about secrets: on a busy plane stderr also names every other group the user cannot list.
    const aboutSecrets = run.stderr.split('\n').filter((line) => line.includes('secrets'));
    expect(aboutSecrets.join('\n')).toContain('secrets named by objects are marked unknown');
    const report = JSON.parse(run.stdout) as GraphReport;
    expect(report.nodes.find((n) => n.kind === 'Secret')?.presence).toBe('unknown');
    expect(report.nodes.find((n) => n.name === 'pg')?.state).toBe('Warning');
    const table = await tree(['FlexibleServersDatabase/db', '-n', ns], {}, kubeconfig);
    expect(table.stdout).toMatch(/Secret\/pg-admin .*Unknown \(not readable\)/);
    expect(auditEvents().filter((event) => event.user.username === user)).toEqual([]);
  });
});
