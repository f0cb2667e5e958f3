import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { NotFound } from '../../src/lib/kube/errors.ts';
import { applyObject } from '../control-plane/apply.ts';
import type { Plane } from '../control-plane/plane.ts';
import { waitUntil } from '../control-plane/processes.ts';
import type { ArmEmulator } from '../fixtures/arm-emulator/index.ts';
import type { LoopbackProxy } from '../fixtures/arm-emulator/proxy.ts';
import { runCli } from '../fixtures/cli.ts';
import {
  goForOperator,
  operatorControllerBinary,
  type RunningOperator,
  startOperator,
} from '../fixtures/operator-controller.ts';
import { startSurroundings, stopSurroundings } from '../fixtures/operator-surroundings.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const neededBy = 'test/operator/resource-group.plane.test.ts';
const go = goForOperator(neededBy);
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);

const group = 'resources.azure.com';
const version = 'v1api20200601';
const placement = { group, version, plural: 'resourcegroups', namespaced: true };

interface Condition {
  type: string;
  status: string;
  reason?: string;
  severity?: string;
}
interface ResourceGroupObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; finalizers?: string[]; annotations?: Record<string, string> };
  spec: { azureName?: string; location: string };
  status?: { conditions?: Condition[]; id?: string; properties?: { provisioningState?: string } };
}

/**
 * ASO v2.20.0's own controller, on a plane of its own (the suite's plane carries the generated
 * ResourceGroup CRD), reconciling against the ARM emulator with every other host answered on loopback.
 */
describe.skipIf(!go || !crds.present)("the operator's own controller against the ARM emulator", () => {
  const stateDir = resolve(
    new URL('../..', import.meta.url).pathname,
    `.local/operator-plane-${process.pid}`,
  );
  let plane: Plane;
  let admin: KubeClient;
  let arm: ArmEmulator;
  let proxy: LoopbackProxy;
  let operator: RunningOperator | undefined;
  const namespace = 'rg-test';
  const name = 'aso-rg-1';

  const read = () =>
    admin.request<ResourceGroupObject>({
      path: `/apis/${group}/${version}/namespaces/${namespace}/resourcegroups/${name}`,
      subject: { verb: 'get', resource: 'resourcegroups', namespace },
    });
  const armPath = () => `/subscriptions/${operator!.subscriptionId}/resourceGroups/${name}`;
  const armRequests = () =>
    arm.requests().filter((r) => r.path.toLowerCase().includes(armPath().toLowerCase()));

  beforeAll(async () => {
    await operatorControllerBinary();
    ({ arm, proxy, plane, admin } = await startSurroundings(stateDir, { longRunningPolls: 2 }));
    operator = await startOperator({
      plane,
      admin,
      arm,
      proxy,
      crdFiles: [join(crds.path, `${group}_resourcegroups.yaml`)],
    });
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  }, 3_600_000);

  afterAll(async () => {
    await stopSurroundings(stateDir, { operator, proxy, arm });
  }, 120_000);

  it('reconciles a ResourceGroup through a long-running PUT to Ready=True, and status --wait sees it', async () => {
    await applyObject(
      admin,
      {
        apiVersion: `${group}/${version}`,
        kind: 'ResourceGroup',
        metadata: { name, namespace },
        spec: { location: 'westus' },
      },
      placement,
    );
    const created = await read();
    // The operator's mutating webhook defaulted azureName; its finalizer arrives with the first reconcile.
    expect(created.spec.azureName).toBe(name);

    const run = await runCli(['status', '-n', namespace, '--wait', '--timeout', '180s', '-o', 'json'], {
      KUBECONFIG: plane.kubeconfig,
    });
    expect(run.stderr).not.toMatch(/Error|error:/);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { items: { name: string; ready: boolean }[] };
    expect(report.items).toEqual([expect.objectContaining({ name, ready: true })]);

    const reconciled = await read();
    expect(reconciled.status?.conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'True', reason: 'Succeeded' }),
    );
    expect(reconciled.metadata.finalizers).toContain('serviceoperator.azure.com/finalizer');
    expect(reconciled.status).toMatchObject({
      id: armPath(),
      properties: { provisioningState: 'Succeeded' },
    });

    // ARM's long-running contract as the operator followed it: the PUT created the group (201, Accepted),
    // the operator polled Azure-AsyncOperation until Succeeded, then read the group back for its status.
    const traffic = arm.requests().filter((r) => r.path.includes(operator!.subscriptionId));
    const steps = traffic.map((r) =>
      /\/operationStatuses\//i.test(r.path) ? `poll ${r.status}` : `${r.method} ${r.status}`,
    );
    expect(steps[0]).toBe('PUT 201');
    expect(steps.slice(1, 3)).toEqual(['poll 200', 'poll 200']);
    expect(steps.slice(3)).toContain('GET 200');
    expect(armRequests()[0]?.path).toMatch(/\?api-version=2020-06-01$/);
  });

  it("serves the object at its storage version through the operator's conversion webhook", async () => {
    const stored = await admin.request<ResourceGroupObject & { spec: { originalVersion?: string } }>({
      path: `/apis/${group}/${version}storage/namespaces/${namespace}/resourcegroups/${name}`,
      subject: { verb: 'get', resource: 'resourcegroups', namespace },
    });
    expect(stored.apiVersion).toBe(`${group}/${version}storage`);
    expect(stored.spec).toMatchObject({ azureName: name, location: 'westus', originalVersion: version });
  });

  it('adopt-check --from-cluster sees no drift after the reconcile, then exactly a change made in Azure behind the operator', async () => {
    const drift = async () => {
      const run = await runCli(['adopt-check', '--from-cluster', '-n', namespace, '-o', 'json'], {
        KUBECONFIG: plane.kubeconfig,
        NODE_EXTRA_CA_CERTS: arm.env.NODE_EXTRA_CA_CERTS,
      });
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout) as AdoptReport;
    };
    const writes = () => armRequests().filter((r) => r.method !== 'GET').length;
    const writesBefore = writes();
    const settled = await drift();
    expect(settled.items).toEqual([
      expect.objectContaining({ name, outcome: 'already-managed', armId: armPath(), changes: [] }),
    ]);
    // A change in the portal: the next reconcile would PUT the spec's location back.
    arm.alter(armPath(), (body) => ({ ...body, location: 'eastus' }));
    try {
      const drifted = await drift();
      // Flagged: the operator's ResourceGroup cannot move, so ARM would refuse the PUT.
      expect(drifted.items[0]?.changes).toEqual([
        { path: 'location', from: 'eastus', to: 'westus', immutable: true },
      ]);
    } finally {
      arm.alter(armPath(), (body) => ({ ...body, location: 'westus' }));
    }
    expect(writes()).toBe(writesBefore);
  });

  it("refuses, through the operator's validating webhook, a change to the immutable azureName", async () => {
    const current = await read();
    const renamed = { ...current, spec: { ...current.spec, azureName: 'another-name' } };
    const refused = await admin
      .request({
        method: 'PUT',
        path: `/apis/${group}/${version}/namespaces/${namespace}/resourcegroups/${name}`,
        body: renamed,
        subject: { verb: 'update', resource: 'resourcegroups', namespace },
      })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(refused?.message).toMatch(/azureName/);
    expect((await read()).spec.azureName).toBe(name);
  });

  it('deletes the resource group in ARM when the object is deleted', async () => {
    await admin.request({
      method: 'DELETE',
      path: `/apis/${group}/${version}/namespaces/${namespace}/resourcegroups/${name}`,
      subject: { verb: 'delete', resource: 'resourcegroups', namespace },
    });
    await waitUntil(
      'the ResourceGroup object to be gone',
      () =>
        read().then(
          () => false,
          (error: unknown) => error instanceof NotFound,
        ),
      180_000,
      () => true,
    );
    const deletes = armRequests().filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.status)).toEqual([202]);
    // The finalizer came off only once the delete operation had been polled to its end.
    const after = arm.requests().slice(arm.requests().indexOf(deletes[0]!) + 1);
    expect(after.filter((r) => /\/operationStatuses\//i.test(r.path)).length).toBe(2);
  });

  it('serves its conversion and admission webhooks on loopback only', () => {
    const listeners = operator!.listeners();
    expect(listeners.length).toBeGreaterThan(0);
    expect(listeners.filter((address) => !address.loopback)).toEqual([]);
  });

  it('sent nothing off loopback: every host it asked for was answered by the emulator', () => {
    expect(operator!.foreignConnections()).toEqual([]);
    // The one foreign host: the public cloud's instance discovery, asked before trusting the emulator as
    // authority. Any other host the operator tried would show up here.
    expect([...new Set(proxy.tunnels())]).toEqual(['login.microsoftonline.com:443']);
    expect(proxy.requests().length).toBeGreaterThan(0);
    for (const request of proxy.requests()) {
      expect(request).toMatchObject({ host: 'login.microsoftonline.com', status: 200 });
      expect(request.path).toMatch(/^\/common\/discovery\/instance\?/);
    }
  });
});
