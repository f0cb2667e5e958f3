import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { StatusItem, StatusReport } from '../../src/lib/status/report.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { freePort } from '../control-plane/processes.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  adminClient,
  auditEvents,
  freshNamespace,
  kubeconfigForLoopbackPort,
  testPlane,
  uniqueSuffix,
  userKubeconfig,
} from '../fixtures/cluster.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import {
  applyRealCrds,
  createObject,
  createObjects,
  type TestKind,
  testKind,
} from '../lib/status/fixtures.ts';

function status(args: string[], kubeconfig = testPlane().kubeconfig) {
  return runCli(['status', ...args], { KUBECONFIG: kubeconfig });
}

async function statusJson(
  args: string[],
  kubeconfig?: string,
): Promise<{ code: number; report: StatusReport; stderr: string }> {
  const run = await status([...args, '-o', 'json'], kubeconfig);
  return { code: run.code, report: JSON.parse(run.stdout) as StatusReport, stderr: run.stderr };
}

function names(items: StatusItem[]): string[] {
  return items.map((item) => `${item.namespace}/${item.name}`).sort();
}

const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;

const realCrds = sharedData('real-aso-crds', 'test/commands/status.test.ts (the real operator CRDs)');

describe.runIf(realCrds.present)('kubectl aso status on the real control plane', () => {
  let real: Record<string, TestKind>;
  let vault: TestKind;
  let ns1: string;
  let ns2: string;
  const ago = new Date(Date.now() - 3 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

  beforeAll(async () => {
    real = await applyRealCrds();
    vault = await testKind('Vault', { shortNames: ['vlt'] });
    [ns1, ns2] = [await freshNamespace('status'), await freshNamespace('status')];
    const rg = real.ResourceGroup as TestKind;
    const db = real.FlexibleServersDatabase as TestKind;
    const owner = { owner: { name: 'server' } };
    await Promise.all([
      createObject(rg, ns1, {
        name: 'rg-ready',
        ready: { status: 'True', reason: 'Succeeded', lastTransitionTime: ago },
        spec: { location: 'westus' },
        labels: { app: 'web' },
      }),
      createObject(rg, ns1, {
        name: 'rg-stale',
        ready: { status: 'True', reason: 'Succeeded' },
        spec: { location: 'westus' },
        stale: true,
      }),
      createObject(db, ns1, {
        name: 'db-error',
        ready: {
          status: 'False',
          severity: 'Error',
          reason: 'AuthorizationFailed',
          message: 'the client has no access',
        },
        spec: owner,
        labels: { app: 'web' },
      }),
      createObject(db, ns1, {
        name: 'db-warning',
        ready: {
          status: 'False',
          severity: 'Warning',
          reason: 'WaitingForOwner',
          message: 'owner server not found',
        },
        spec: owner,
      }),
      createObject(vault, ns2, {
        name: 'v-progressing',
        ready: {
          status: 'False',
          severity: 'Info',
          reason: 'Reconciling',
          message: 'the request was submitted',
        },
      }),
      createObject(vault, ns2, {
        name: 'v-deleting',
        ready: { status: 'False', severity: 'Info', reason: 'Deleting' },
        deleting: true,
      }),
      createObject(vault, ns2, { name: 'v-unknown', ready: null }),
      createObject(vault, ns2, { name: 'v-unreadable', ready: { status: 'Maybe', reason: 'Odd' } }),
    ]);
  });

  it('puts every object in its state in JSON, including kinds this project does not generate', async () => {
    const { code, report } = await statusJson(['-A']);
    expect(code).toBe(0);
    const mine = report.items.filter((item) => item.namespace === ns1 || item.namespace === ns2);
    const byName = Object.fromEntries(mine.map((item) => [item.name, item]));
    expect(Object.keys(byName).sort()).toEqual([
      'db-error',
      'db-warning',
      'rg-ready',
      'rg-stale',
      'v-deleting',
      'v-progressing',
      'v-unknown',
      'v-unreadable',
    ]);
    expect(byName['rg-ready']).toEqual({
      namespace: ns1,
      kind: 'ResourceGroup',
      group: real.ResourceGroup?.group,
      version: expect.stringMatching(/^v1api20200601/),
      name: 'rg-ready',
      state: 'Ready',
      stale: false,
      ready: true,
      severity: '',
      reason: 'Succeeded',
      message: '',
      lastTransitionTime: ago,
    });
    expect(byName['rg-stale']).toMatchObject({ state: 'Ready', stale: true, ready: false });
    expect(byName['db-error']).toMatchObject({
      kind: 'FlexibleServersDatabase',
      group: real.FlexibleServersDatabase?.group,
      state: 'Error',
      severity: 'Error',
      reason: 'AuthorizationFailed',
      message: 'the client has no access',
    });
    expect(byName['db-warning']).toMatchObject({ state: 'Warning', reason: 'WaitingForOwner' });
    expect(byName['v-progressing']).toMatchObject({
      kind: 'Vault',
      group: vault.group,
      state: 'Progressing',
    });
    expect(byName['v-deleting']).toMatchObject({ state: 'Deleting' });
    expect(byName['v-unknown']).toMatchObject({ state: 'Unknown', reason: '', lastTransitionTime: null });
    expect(byName['v-unreadable']).toMatchObject({ state: 'Unknown', reason: 'Odd' });
    expect(Object.keys(report)).toEqual(['items', 'summary', 'warnings']);
    expect(Object.keys(report.summary)).toEqual(['total', 'byState', 'byReason', 'byKind']);
    expect(report.summary.total).toBe(report.items.length);
  });

  it('puts every object in its state in the table, with a summary', async () => {
    const run = await status(['-n', ns1]);
    expect(run.code).toBe(0);
    const rows = run.stdout.split('\n');
    expect(rows[0]).toMatch(/^NAMESPACE\s+KIND\s+NAME\s+STATE\s+SEVERITY\s+REASON\s+AGE\s+MESSAGE$/);
    const row = (name: string) => rows.find((line) => line.includes(` ${name} `)) ?? '';
    expect(row('rg-ready')).toMatch(
      new RegExp(`^${ns1}\\s+ResourceGroup\\s+rg-ready\\s+Ready\\s+Succeeded\\s+3m\\d*s?`),
    );
    expect(row('rg-stale')).toMatch(/Ready \(stale\)\s+Succeeded/);
    expect(row('db-error')).toMatch(
      /FlexibleServersDatabase\s+db-error\s+Error\s+Error\s+AuthorizationFailed\s+\S+\s+the client has no access$/,
    );
    expect(row('db-warning')).toMatch(/Warning\s+Warning\s+WaitingForOwner/);
    expect(run.stdout).toContain(
      '4 resources: 2 Ready, 1 Warning, 1 Error; 1 stale (condition older than the spec)',
    );
    expect(run.stdout).toContain('top reasons (not Ready): AuthorizationFailed 1, WaitingForOwner 1');
    expect(run.stdout).toContain('by kind: FlexibleServersDatabase 2, ResourceGroup 2');

    const other = await status(['-n', ns2]);
    const line = (name: string) => other.stdout.split('\n').find((l) => l.includes(` ${name} `)) ?? '';
    expect(line('v-progressing')).toMatch(/Vault\s+v-progressing\s+Progressing\s+Info\s+Reconciling/);
    expect(line('v-deleting')).toMatch(/v-deleting\s+Deleting\s+Info\s+Deleting/);
    expect(line('v-unknown')).toMatch(/v-unknown\s+Unknown\s+<none>$/);
  });

  it('selects exactly with -n, -A, -l, --kind and --state', async () => {
    const inNs1 = await statusJson(['-n', ns1]);
    expect(names(inNs1.report.items)).toEqual([
      `${ns1}/db-error`,
      `${ns1}/db-warning`,
      `${ns1}/rg-ready`,
      `${ns1}/rg-stale`,
    ]);
    const all = await statusJson(['-A']);
    expect(all.report.items.some((item) => item.namespace === ns2)).toBe(true);
    expect(all.report.items.some((item) => item.namespace === ns1)).toBe(true);

    expect(names((await statusJson(['-n', ns1, '-l', 'app=web'])).report.items)).toEqual([
      `${ns1}/db-error`,
      `${ns1}/rg-ready`,
    ]);
    for (const kind of ['vlt', 'VAULTS', `vault.${vault.group}`]) {
      const { report } = await statusJson(['-A', '--kind', kind]);
      expect(names(report.items)).toEqual([
        `${ns2}/v-deleting`,
        `${ns2}/v-progressing`,
        `${ns2}/v-unknown`,
        `${ns2}/v-unreadable`,
      ]);
    }
    const twoKinds = await statusJson([
      '-n',
      ns1,
      '--kind',
      `resourcegroup.${real.ResourceGroup?.group}`,
      '--kind',
      'vlt',
    ]);
    expect(names(twoKinds.report.items)).toEqual([`${ns1}/rg-ready`, `${ns1}/rg-stale`]);
    const bad = await statusJson(['-A', '--state', 'error,warning']);
    expect(bad.report.items.every((item) => item.state === 'Error' || item.state === 'Warning')).toBe(true);
    expect(names(bad.report.items.filter((item) => item.namespace === ns1))).toEqual([
      `${ns1}/db-error`,
      `${ns1}/db-warning`,
    ]);
    expect(bad.report.summary.total).toBe(bad.report.items.length);
    const notReady = await statusJson(['-n', ns1, '--not-ready']);
    expect(names(notReady.report.items)).toEqual([`${ns1}/db-error`, `${ns1}/db-warning`]);

    const unknownKind = await status(['-A', '--kind', 'NoSuchKind']);
    expect(unknownKind.code).toBe(7);
    expect(unknownKind.stderr).toContain('no ASO resource type matches --kind NoSuchKind');
  });

  it('exits with the --fail-on code when a reported resource is at that state or worse', async () => {
    expect((await status(['-n', ns1, '--fail-on', 'error'])).code).toBe(11);
    expect((await status(['-n', ns1, '--kind', 'ResourceGroup', '--fail-on', 'warning'])).code).toBe(0);
    expect((await status(['-n', ns1, '--kind', 'ResourceGroup', '--fail-on', 'not-ready'])).code).toBe(0);
    expect((await status(['-n', ns2, '--fail-on', 'not-ready'])).code).toBe(11);
  });

  it('works as a read-only user and writes nothing', async () => {
    const user = `status-ro-${uniqueSuffix()}`;
    const kubeconfig = userKubeconfig(user, ['kubectl-aso:readonly']);
    const { code, report } = await statusJson(['-A'], kubeconfig);
    expect(code).toBe(0);
    expect(names(report.items.filter((item) => item.namespace === ns2))).toHaveLength(4);
    const table = await status(['-A'], kubeconfig);
    expect(table.code).toBe(0);
    expect(auditEvents().filter((event) => event.user.username === user)).toEqual([]);
  });

  it('the readonly context of the kubeconfig works too', async () => {
    const run = await runCli(['status', '-n', ns1, '--context', 'readonly', '-o', 'json'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).items).toHaveLength(4);
  });
});

describe('partial access on the real control plane', () => {
  it('shows what a user may read, names what it may not, and exits with the partial code', async () => {
    const allowed = await testKind('Cache');
    const forbidden = await testKind('Secretstore');
    const namespace = await freshNamespace('partial');
    await createObject(allowed, namespace, { name: 'c1', ready: { status: 'True', reason: 'Succeeded' } });
    await createObject(forbidden, namespace, { name: 's1', ready: { status: 'True', reason: 'Succeeded' } });
    const user = `status-partial-${uniqueSuffix()}`;
    const admin = await adminClient();
    await applyObject(admin, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: user, namespace },
      rules: [{ apiGroups: [allowed.group], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
    });
    await applyObject(admin, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: user, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: user },
      subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
    });
    const kubeconfig = userKubeconfig(user);
    const args = [
      '-n',
      namespace,
      '--kind',
      `cache.${allowed.group}`,
      '--kind',
      `secretstores.${forbidden.group}`,
    ];
    const { code, report } = await statusJson(args, kubeconfig);
    expect(code).toBe(10);
    expect(names(report.items)).toEqual([`${namespace}/c1`]);
    expect(report.warnings).toEqual([
      {
        resource: `secretstores.${forbidden.group}`,
        kind: 'Secretstore',
        group: forbidden.group,
        namespace,
        reason: 'Forbidden',
        message: expect.stringContaining(
          `cannot list secretstores.${forbidden.group} in namespace ${namespace}`,
        ),
      },
    ]);
    const table = await status(args, kubeconfig);
    expect(table.code).toBe(10);
    expect(table.stdout).toContain('c1');
    expect(table.stdout).toContain('warnings: 1 could not be read');
    expect(table.stdout).toContain(`cannot list secretstores.${forbidden.group} in namespace ${namespace}`);
  });

  it('shows the other kinds when one kind answers a server error (a broken conversion webhook)', async () => {
    const healthy = await testKind('Cache');
    const namespace = await freshNamespace('broken');
    await createObject(healthy, namespace, { name: 'c1', ready: { status: 'True', reason: 'Succeeded' } });
    // A kind stored at v1 and served at v2 through a conversion webhook nobody listens to: listing it at v2
    // makes the API server answer 500.
    const group = `b${uniqueSuffix()}.test.azure.com`;
    const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    const admin = await adminClient();
    await applyObject(admin, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `brokens.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'brokens', singular: 'broken', kind: 'Broken', listKind: 'BrokenList' },
        versions: [
          { name: 'v1', served: true, storage: true, schema },
          { name: 'v2', served: true, storage: false, schema },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: {
            conversionReviewVersions: ['v1'],
            clientConfig: { url: `https://127.0.0.1:${await freePort()}/convert` },
          },
        },
      },
    });
    await waitForEstablished(admin, `brokens.${group}`);
    // Other tests list every namespace: the broken kind must not outlive this one.
    onTestFinished(async () => {
      await admin.request({
        method: 'DELETE',
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/brokens.${group}`,
        subject: { verb: 'delete', resource: 'customresourcedefinitions' },
      });
    });
    await applyObject(
      admin,
      { apiVersion: `${group}/v1`, kind: 'Broken', metadata: { name: 'b1', namespace } },
      { group, version: 'v1', plural: 'brokens', namespaced: true },
    );
    const { code, report } = await statusJson([
      '-n',
      namespace,
      '--kind',
      `cache.${healthy.group}`,
      '--kind',
      `brokens.${group}`,
    ]);
    expect(code).toBe(10);
    expect(names(report.items)).toEqual([`${namespace}/c1`]);
    expect(report.warnings).toEqual([
      expect.objectContaining({
        resource: `brokens.${group}`,
        reason: 'ServerError',
        message: expect.stringContaining('500'),
      }),
    ]);

    // --watch -o yaml prints a warning known from the start as a document too, not only its exit code.
    const watch = spawn(
      process.execPath,
      [
        bin,
        'status',
        '-n',
        namespace,
        '--kind',
        `cache.${healthy.group}`,
        '--kind',
        `brokens.${group}`,
        '--watch',
        '-o',
        'yaml',
      ],
      { env: { ...process.env, KUBECONFIG: testPlane().kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let yaml = '';
    watch.stdout.on('data', (chunk: Buffer) => {
      yaml += chunk.toString();
    });
    const exited = new Promise<number>((resolve) => watch.on('close', (code) => resolve(code ?? -1)));
    const deadline = Date.now() + 30_000;
    while (!yaml.includes('type: WARNING') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    watch.kill('SIGINT');
    expect(await exited).toBe(10);
    expect(yaml).toContain('type: WARNING');
    expect(yaml).toContain('reason: ServerError');
  });

  it('with -A, lists namespace by namespace for a user allowed into one namespace only', async () => {
    const kind = await testKind('Scoped');
    const [mine, theirs] = [await freshNamespace('scoped'), await freshNamespace('scoped')];
    await createObject(kind, mine, { name: 'mine', ready: { status: 'True', reason: 'Succeeded' } });
    await createObject(kind, theirs, { name: 'theirs', ready: { status: 'True', reason: 'Succeeded' } });
    const admin = await adminClient();
    const bind = async (user: string, listNamespaces: boolean): Promise<string> => {
      const rbac = 'rbac.authorization.k8s.io';
      await applyObject(admin, {
        apiVersion: `${rbac}/v1`,
        kind: 'Role',
        metadata: { name: user, namespace: mine },
        rules: [{ apiGroups: [kind.group], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
      });
      const subjects = [{ kind: 'User', name: user, apiGroup: rbac }];
      await applyObject(admin, {
        apiVersion: `${rbac}/v1`,
        kind: 'RoleBinding',
        metadata: { name: user, namespace: mine },
        roleRef: { apiGroup: rbac, kind: 'Role', name: user },
        subjects,
      });
      if (listNamespaces) {
        await applyObject(admin, {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRole',
          metadata: { name: user },
          rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
        });
        await applyObject(admin, {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name: user },
          roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: user },
          subjects,
        });
      }
      return userKubeconfig(user);
    };
    const args = ['-A', '--kind', `scoped.${kind.group}`];

    const lister = await bind(`status-ns-${uniqueSuffix()}`, true);
    const { code, report } = await statusJson(args, lister);
    expect(code).toBe(10);
    expect(names(report.items)).toEqual([`${mine}/mine`]);
    expect(report.warnings.some((warning) => warning.namespace === mine)).toBe(false);
    expect(report.warnings).toContainEqual({
      resource: `scopeds.${kind.group}`,
      kind: 'Scoped',
      group: kind.group,
      namespace: theirs,
      reason: 'Forbidden',
      message: expect.stringContaining(`cannot list scopeds.${kind.group} in namespace ${theirs}`),
    });

    const waited = await statusJson([...args, '--wait', '--timeout', '10s'], lister);
    expect(waited.code).toBe(10);
    expect(names(waited.report.items)).toEqual([`${mine}/mine`]);
    expect(waited.report.warnings.some((warning) => warning.namespace === theirs)).toBe(true);

    const blind = await bind(`status-nons-${uniqueSuffix()}`, false);
    const without = await statusJson(args, blind);
    expect(without.code).toBe(10);
    expect(without.report.items).toEqual([]);
    expect(without.report.warnings).toHaveLength(1);
    expect(without.report.warnings[0]?.message).toMatch(/namespaces cannot be listed.*pass -n NAMESPACE/);
  });

  it('rejects a label selector the API server cannot parse as invalid input (exit 9), not as partial', async () => {
    const run = await status(['-A', '-l', 'app in (web']);
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('-l/--selector "app in (web"');
    expect(run.stdout).toBe('');
  });

  it('names an unreachable cluster clearly (exit 4)', async () => {
    const port = await freePort();
    const kubeconfig = kubeconfigForLoopbackPort(port);
    const run = await status(['-A'], kubeconfig);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`cannot reach the cluster at https://127.0.0.1:${port}`);
    expect(run.stdout).toBe('');
  });
});

describe('paging on the real control plane', () => {
  it('counts every object exactly once when there are more than fit a page', async () => {
    const kind = await testKind('Pagedthing');
    const namespaces = [
      await freshNamespace('paged'),
      await freshNamespace('paged'),
      await freshNamespace('paged'),
    ];
    const states = [
      { status: 'True', reason: 'Succeeded' },
      { status: 'False', severity: 'Error', reason: 'InvalidParameter' },
      { status: 'False', severity: 'Info', reason: 'Reconciling' },
    ];
    for (const namespace of namespaces) {
      await createObjects(
        kind,
        namespace,
        Array.from({ length: 40 }, (_, index) => ({ name: `p${index}`, ready: states[index % 3] ?? null })),
      );
    }
    const { code, report } = await statusJson([
      '-A',
      '--kind',
      `pagedthing.${kind.group}`,
      '--chunk-size',
      '7',
    ]);
    expect(code).toBe(0);
    expect(report.summary.total).toBe(120);
    expect(new Set(report.items.map((item) => `${item.namespace}/${item.name}`)).size).toBe(120);
    expect(report.summary.byState).toMatchObject({ Ready: 42, Error: 39, Progressing: 39 });
    expect(report.summary.byKind).toEqual({ [`Pagedthing.${kind.group}`]: 120 });
  });
});

describe('usage and terminal safety on the real control plane', () => {
  it('refuses an empty -n instead of listing every namespace', async () => {
    const run = await status(['-n', '']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('-n/--namespace: the namespace is empty');
    expect(run.stdout).toBe('');
  });

  it('refuses --timeout without --wait instead of ignoring it', async () => {
    const run = await status(['-A', '--timeout', '5s']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--timeout only applies to --wait');
  });

  it('escapes control characters from the cluster in the table, and keeps them exact in JSON', async () => {
    const kind = await testKind('Noisy');
    const namespace = await freshNamespace('noisy');
    const message = 'bad\u001b]0;pwned\u0007 \u001b[2Jsku\u009b31m\r\nsecond line';
    await createObject(kind, namespace, {
      name: 'noisy',
      ready: { status: 'False', severity: 'Error', reason: 'Bad\u001b[31mReason', message },
    });
    const table = await status(['-n', namespace, '--kind', `noisy.${kind.group}`, '-o', 'wide']);
    expect(table.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character but newline may be printed
    expect(table.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(table.stdout).toContain('bad\\x1b]0;pwned\\x07 \\x1b[2Jsku\\x9b31m second line');
    expect(table.stdout).toContain('Bad\\x1b[31mReason');
    const { report } = await statusJson(['-n', namespace, '--kind', `noisy.${kind.group}`]);
    expect(report.items[0]?.message).toBe(message);
    expect(report.items[0]?.reason).toBe('Bad\u001b[31mReason');
  });
});
