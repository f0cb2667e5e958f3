import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import { type ArmEmulator, startArmEmulator } from '../fixtures/arm-emulator/index.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  adminClient,
  auditEvents,
  freshNamespace,
  uniqueSuffix,
  userKubeconfig,
} from '../fixtures/cluster.ts';

const sub = '55555555-5555-5555-5555-555555555555';
const group = 'resources.azure.com';
const idOf = (name: string) => `/subscriptions/${sub}/resourceGroups/${name}`;

/**
 * `adopt-check --from-cluster`: the objects already applied, each read at its storage version and planned
 * at the version it was applied at, against what the ARM emulator holds. The cluster's objects are
 * written as the operator stores them (storage version, `originalVersion`, the resource-id annotation).
 */
describe('adopt-check --from-cluster on the real control plane with the ARM emulator', () => {
  let arm: ArmEmulator;
  let ns: string;
  // A user of its own, with every right, so that the audit log shows exactly what the runs wrote.
  const user = `from-cluster-${uniqueSuffix()}`;
  let kubeconfig: string;

  beforeAll(async () => {
    arm = await startArmEmulator({
      seed: [
        {
          id: idOf('rg-same'),
          apiVersion: '2020-06-01',
          body: { location: 'westus', tags: { env: 'prod' } },
        },
        {
          id: idOf('rg-drift'),
          apiVersion: '2020-06-01',
          body: { location: 'westus', tags: { env: 'dev' } },
        },
        { id: idOf('rg-skip'), apiVersion: '2020-06-01', body: { location: 'westus', tags: { env: 'dev' } } },
      ],
    });
    ns = await freshNamespace('from-cluster');
    kubeconfig = userKubeconfig(user, ['system:masters']);
    const admin = await adminClient();
    const data: Record<string, string> = { ...arm.env, AZURE_SUBSCRIPTION_ID: sub };
    delete data.NODE_EXTRA_CA_CERTS;
    delete data.ARM_EMULATOR_REQUEST_LOG;
    await admin.request({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/secrets`,
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'aso-credential' }, stringData: data },
      subject: { verb: 'create', resource: 'secrets', namespace: ns },
    });
    const stored = (name: string, originalVersion: string, labels: object, annotations: object = {}) =>
      admin.request({
        method: 'POST',
        path: `/apis/${group}/v1api20200601storage/namespaces/${ns}/resourcegroups`,
        body: {
          apiVersion: `${group}/v1api20200601storage`,
          kind: 'ResourceGroup',
          metadata: {
            name,
            labels,
            annotations: { 'serviceoperator.azure.com/resource-id': idOf(name), ...annotations },
          },
          spec: { azureName: name, location: 'westus', tags: { env: 'prod' }, originalVersion },
        },
        subject: { verb: 'create', resource: 'resourcegroups', namespace: ns },
      });
    await stored('rg-same', 'v1api20200601', { app: 'drift' });
    // Applied at an older version: the core converts it down from storage before planning.
    await stored('rg-drift', 'v1beta20200601', { app: 'drift' });
    await stored(
      'rg-skip',
      'v1api20200601',
      { app: 'other' },
      { 'serviceoperator.azure.com/reconcile-policy': 'skip' },
    );
    await stored('rg-unserved', 'v1api29990101', { app: 'other' });
    // Managed by the operator, but deleted in Azure behind its back.
    await stored('rg-gone', 'v1api20200601', { app: 'other' });
  }, 60_000);

  afterAll(async () => {
    await arm?.stop();
  });

  const run = (args: string[]) =>
    runCli(['adopt-check', '--from-cluster', '-n', ns, '--operator-namespace', ns, ...args], {
      KUBECONFIG: kubeconfig,
      ...arm.env,
    });

  it('reports no drift where Azure holds what the spec says, exactly the drift where it does not, and nothing under skip', async () => {
    const before = readFileSync(arm.requestLogFile, 'utf8').split('\n').length;
    const result = await run(['-o', 'json']);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as AdoptReport;
    const byName = new Map(report.items.map((item) => [item.name, item]));
    expect([...byName.keys()].sort()).toEqual(['rg-drift', 'rg-gone', 'rg-same', 'rg-skip']);
    for (const item of report.items) {
      expect(item.outcome).toBe('already-managed');
      expect(item.armId).toBe(idOf(item.name));
    }
    // Gone from Azure: the next reconcile creates it again, every property new.
    const gone = byName.get('rg-gone');
    expect(gone?.exists).toBe(false);
    expect(gone?.reason).toContain('the resource is missing in Azure: the next reconcile creates it again');
    expect(gone?.changes).toHaveLength(2);
    expect(gone?.changes).toEqual(
      expect.arrayContaining([
        { path: 'location', from: null, to: 'westus' },
        { path: 'tags', from: null, to: { env: 'prod' } },
      ]),
    );
    expect(byName.get('rg-same')?.changes).toEqual([]);
    expect(byName.get('rg-drift')?.changes).toEqual([{ path: 'tags.env', from: 'dev', to: 'prod' }]);
    expect(byName.get('rg-skip')?.changes).toEqual([]);
    expect(byName.get('rg-skip')?.reason).toContain('reconcile-policy skip');
    // The object applied at a version the CRD does not serve is named, not planned from the wrong shape.
    expect(report.warnings.join('\n')).toContain(
      `${ns}/ResourceGroup/rg-unserved: applied at ${group}/v1api29990101, which its CRD does not serve`,
    );
    expect(result.code).toBe(0);
    // Read-only on both sides: GETs in Azure, and no write in the cluster by this user.
    const requests = readFileSync(arm.requestLogFile, 'utf8')
      .split('\n')
      .slice(before - 1);
    expect(requests.filter((line) => /^(PUT|PATCH|DELETE|POST) \/subscriptions/.test(line))).toEqual([]);
    expect(auditEvents().filter((event) => event.user.username === user)).toEqual([]);
  });

  it('narrows by label selector and by KIND/NAME, and fails on drift when asked', async () => {
    const labelled = JSON.parse((await run(['-l', 'app=drift', '-o', 'json'])).stdout) as AdoptReport;
    expect(labelled.items.map((item) => item.name).sort()).toEqual(['rg-drift', 'rg-same']);
    // Qualified by group: other test files on the shared plane install CRDs of the same kind in other groups,
    // and a bare kind that several groups serve is refused, naming them.
    const named = await run([
      'resourcegroup.resources.azure.com/rg-drift',
      'ResourceGroups.resources.azure.com/rg-same',
      '-o',
      'json',
      '--fail-on',
      'change',
    ]);
    expect(named.stderr).not.toContain('error');
    expect((JSON.parse(named.stdout) as AdoptReport).items.map((item) => item.name)).toEqual([
      'rg-drift',
      'rg-same',
    ]);
    expect(named.code).toBe(11);
  });

  it('names a missing object or an unknown kind, and refuses flags that do not fit, without a stack trace', async () => {
    const missing = await run(['ResourceGroup.resources.azure.com/nope']);
    expect(missing.code, missing.stderr).toBe(7);
    expect(missing.stderr).toContain(`ResourceGroup/nope not found in namespace ${ns}`);
    const unknown = await run(['Gadget/x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Gadget/x: no installed ASO CRD');
    const both = await runCli(['adopt-check', '--from-cluster', '-f', 'x.yaml'], { KUBECONFIG: kubeconfig });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give -f FILE or --from-cluster, not both');
    const stray = await runCli(['adopt-check', '-f', 'x.yaml', '-A'], { KUBECONFIG: kubeconfig });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('-A: only with --from-cluster');
    for (const r of [missing, unknown, both, stray]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
