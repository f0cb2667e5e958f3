import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeleteCheckReport } from '../../src/lib/deletion/report.ts';
import { type ArmEmulator, startArmEmulator } from '../fixtures/arm-emulator/index.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  adminClient,
  auditEvents,
  freshNamespace,
  uniqueSuffix,
  userKubeconfig,
} from '../fixtures/cluster.ts';
import { applyGraphCrds, createAso, ready, v220Crds } from '../lib/graph/fixtures.ts';
import type { TestKind } from '../lib/status/fixtures.ts';

const sub = '33333333-3333-3333-3333-333333333333';
const appRg = `/subscriptions/${sub}/resourceGroups/app-rg`;
const keptRg = `/subscriptions/${sub}/resourceGroups/kept-rg`;
const goneRg = `/subscriptions/${sub}/resourceGroups/gone-rg`;
const pgId = `${appRg}/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg`;
const otherId = `${keptRg}/providers/Microsoft.DBforPostgreSQL/flexibleServers/other`;
const policy = 'serviceoperator.azure.com/reconcile-policy';

describe.runIf(v220Crds.present)(
  'kubectl aso delete-check on the real control plane with the ARM emulator',
  () => {
    let arm: ArmEmulator;
    let ns: string;
    let kubeconfig: string;
    let user: string;

    const check = (args: string[]) =>
      runCli(['delete-check', ...args], { KUBECONFIG: kubeconfig, ...arm.env });

    beforeAll(async () => {
      arm = await startArmEmulator({
        listPageSize: 2,
        seed: [
          { id: appRg, apiVersion: '2020-06-01', body: { location: 'westus' } },
          { id: pgId, apiVersion: '2024-08-01', body: { location: 'westus' } },
          { id: `${pgId}/databases/app`, apiVersion: '2024-08-01', body: { properties: {} } },
          {
            id: `${appRg}/providers/Microsoft.KeyVault/vaults/kv`,
            apiVersion: '2023-07-01',
            body: { location: 'westus' },
          },
          {
            id: `${appRg}/providers/Microsoft.Storage/storageAccounts/logs`,
            apiVersion: '2023-01-01',
            body: { location: 'westus' },
          },
          { id: keptRg, apiVersion: '2020-06-01', body: { location: 'westus' } },
          { id: otherId, apiVersion: '2024-08-01', body: { location: 'westus' } },
          {
            id: `${keptRg}/providers/Microsoft.KeyVault/vaults/keep`,
            apiVersion: '2023-07-01',
            body: { location: 'westus' },
          },
        ],
      });
      const kinds = await applyGraphCrds();
      const [rg, server, db] = [kinds.ResourceGroup, kinds.FlexibleServer, kinds.FlexibleServersDatabase] as [
        TestKind,
        TestKind,
        TestKind,
      ];
      ns = await freshNamespace('delete-check');
      const credential: Record<string, string> = { ...arm.env, AZURE_SUBSCRIPTION_ID: sub };
      delete credential.NODE_EXTRA_CA_CERTS;
      delete credential.ARM_EMULATOR_REQUEST_LOG;
      const admin = await adminClient();
      await admin.request({
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/secrets`,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'aso-credential' },
          stringData: credential,
        },
        subject: { verb: 'create', resource: 'secrets', namespace: ns },
      });
      const done = ready('True', '', 'Succeeded');
      await createAso(rg, ns, 'app-rg', { location: 'westus' }, { ...done, id: appRg });
      await createAso(
        server,
        ns,
        'pg',
        { owner: { name: 'app-rg' }, location: 'westus' },
        { ...done, id: pgId },
        { [policy]: 'detach-on-delete' },
      );
      await createAso(db, ns, 'db', { owner: { name: 'pg' } });
      await createAso(
        rg,
        ns,
        'kept-rg',
        { location: 'westus' },
        { ...done, id: keptRg },
        { [policy]: 'skip' },
      );
      await createAso(
        server,
        ns,
        'other',
        { owner: { name: 'kept-rg' }, location: 'westus' },
        { ...done, id: otherId },
      );
      await createAso(rg, ns, 'gone-rg', { location: 'westus' }, { ...done, id: goneRg });
      user = `delete-check-${uniqueSuffix()}`;
      kubeconfig = userKubeconfig(user, ['kubectl-aso:readonly']);
    });
    afterAll(() => arm.stop());

    it('follows the cascade and policies, and counts what ARM lists in a deleted group that no object declares', async () => {
      const run = await check(['ResourceGroup/app-rg', '-n', ns, '-o', 'json']);
      expect(run.code).toBe(24);
      const report = JSON.parse(run.stdout) as DeleteCheckReport;
      expect(
        report.cascade.map((item) => `${item.name} ${item.policy}/${item.policySource} ${item.azure}`),
      ).toEqual([
        'app-rg manage/default deletes',
        'pg detach-on-delete/object deleted-with-owner',
        'db manage/default none',
      ]);
      expect(report.resourceGroups).toHaveLength(1);
      const [group] = report.resourceGroups;
      expect(group).toMatchObject({ armId: appRg, listing: 'listed', undeclared: 2 });
      expect(
        group?.resources.map(
          (r) => `${r.type} ${r.name} ${r.declaredBy === null ? 'undeclared' : 'declared'}`,
        ),
      ).toEqual([
        'Microsoft.KeyVault/vaults kv undeclared',
        'Microsoft.Storage/storageAccounts logs undeclared',
        'Microsoft.DBforPostgreSQL/flexibleServers pg declared',
      ]);
      expect(report.undeclared).toBe(2);
    });

    it('says plainly what would be lost, and nothing when the group is kept', async () => {
      const run = await check(['resourcegroups/app-rg', '-n', ns]);
      // The README shows this run's output: DELETE_CHECK_README=FILE writes it there to copy.
      if (process.env.DELETE_CHECK_README) writeFileSync(process.env.DELETE_CHECK_README, run.stdout);
      expect(run.code).toBe(24);
      expect(run.stdout).toContain(
        `Resource group ${appRg} (ResourceGroup/app-rg) would be deleted in Azure:`,
      );
      expect(run.stdout).toContain('2 resources in it that no ASO object declares would be lost:');
      expect(run.stdout).toMatch(/Microsoft\.KeyVault\/vaults {2}kv\n/);
      expect(run.stdout).toContain('2 Azure resources that no ASO object declares would be deleted.');
      const kept = await check(['ResourceGroup/kept-rg', '-n', ns, '-o', 'json']);
      expect(kept.code).toBe(0);
      const report = JSON.parse(kept.stdout) as DeleteCheckReport;
      expect(report.cascade.map((item) => `${item.name} ${item.azure}`)).toEqual([
        'kept-rg keeps',
        'other deletes',
      ]);
      expect(report.resourceGroups).toEqual([]);
    });

    it('over a namespace, lists every group deleted, one no longer in Azure included', async () => {
      const run = await check(['-n', ns, '-o', 'json']);
      expect(run.code).toBe(24);
      const report = JSON.parse(run.stdout) as DeleteCheckReport;
      expect(
        report.resourceGroups.map((group) => `${group.armId} ${group.listing} ${group.undeclared}`).sort(),
      ).toEqual([`${appRg} listed 2`, `${goneRg} not-found 0`]);
      expect((await check(['-A'])).code).toBe(2);
    });

    it('never writes: no write in the cluster, only GETs in Azure', () => {
      expect(auditEvents().filter((event) => event.user.username === user)).toEqual([]);
      const methods = new Set(
        readFileSync(arm.requestLogFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' ')[0]),
      );
      expect([...methods].filter((method) => method !== 'GET' && method !== 'POST')).toEqual([]);
      // The POSTs are token requests to the identity endpoint, never to ARM.
      const posts = readFileSync(arm.requestLogFile, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('POST'));
      for (const post of posts) expect(post).toMatch(/\/oauth2\/v2\.0\/token/);
    });
  },
);
