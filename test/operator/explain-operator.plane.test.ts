import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Explanation } from '../../src/lib/explain/explain.ts';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { applyObject } from '../control-plane/apply.ts';
import type { Plane } from '../control-plane/plane.ts';
import { isAlive } from '../control-plane/processes.ts';
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
import {
  create,
  readObject,
  readyOf,
  resourceGroup,
  resourceGroupType,
  userAssignedIdentity,
  userAssignedIdentityType,
  waitForReason,
} from './aso-objects.ts';

const neededBy = 'test/operator/explain-operator.plane.test.ts';
const go = goForOperator(neededBy);
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);

/** Long enough for the operator's own backoff on this loaded machine (its fast retries reach 30 s). */
const operatorPace = 240_000;

const namespace = 'explain-owner';
const identityName = 'waiting-id';
const ownerName = 'late-rg';

/**
 * `kubectl aso explain` on conditions ASO v2.20.0's own controller wrote (not conditions a test wrote for
 * it): a UserAssignedIdentity applied before its ResourceGroup, then the group created.
 */
describe.skipIf(!go || !crds.present)("kubectl aso explain on the operator's own conditions", () => {
  const stateDir = resolve(
    new URL('../..', import.meta.url).pathname,
    `.local/operator-explain-${process.pid}`,
  );
  let plane: Plane;
  let admin: KubeClient;
  let arm: ArmEmulator;
  let proxy: LoopbackProxy;
  let operator: RunningOperator | undefined;

  const running = () => isAlive(operator?.pid);
  const explain = (args: string[]) =>
    runCli(['explain', `UserAssignedIdentity/${identityName}`, '-n', namespace, ...args], {
      KUBECONFIG: plane.kubeconfig,
      COLUMNS: '200',
    });
  const explainJson = async (): Promise<{ code: number; explanation: Explanation; stderr: string }> => {
    const run = await explain(['-o', 'json']);
    try {
      return { code: run.code, explanation: JSON.parse(run.stdout) as Explanation, stderr: run.stderr };
    } catch {
      throw new Error(`explain printed no JSON (exit ${run.code}): ${run.stdout}${run.stderr}`);
    }
  };

  beforeAll(async () => {
    await operatorControllerBinary();
    ({ arm, proxy, plane, admin } = await startSurroundings(stateDir, { longRunningPolls: 1 }));
    operator = await startOperator({
      plane,
      admin,
      arm,
      proxy,
      crdFiles: [
        join(crds.path, 'resources.azure.com_resourcegroups.yaml'),
        join(crds.path, 'managedidentity.azure.com_userassignedidentities.yaml'),
      ],
    });
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  }, 3_600_000);

  afterAll(async () => {
    await stopSurroundings(stateDir, { operator, proxy, arm });
  }, 120_000);

  it('names the missing ResourceGroup a UserAssignedIdentity waits for (exit 25), and nothing once the operator made both Ready', async () => {
    await create(admin, userAssignedIdentity(namespace, identityName, ownerName), userAssignedIdentityType);
    const waiting = await waitForReason(
      admin,
      userAssignedIdentityType,
      namespace,
      identityName,
      'WaitingForOwner',
      operatorPace,
      running,
    );
    expect(readyOf(waiting)).toMatchObject({ status: 'False', severity: 'Warning' });

    const missing = await explainJson();
    expect(missing.stderr).toBe('');
    expect(missing.code).toBe(25);
    const { explanation } = missing;
    expect(explanation.class).toBe('missing');
    expect(explanation.steps).toEqual([
      expect.objectContaining({
        label: `UserAssignedIdentity/${identityName}`,
        state: 'Warning',
        reason: 'WaitingForOwner',
        via: null,
      }),
      expect.objectContaining({ label: `ResourceGroup/${ownerName}`, state: 'missing', via: 'spec.owner' }),
    ]);
    expect(explanation.cause).toMatchObject({
      label: `ResourceGroup/${ownerName}`,
      presence: 'missing',
      retries: 'the waiting object is retried by the operator until this exists',
      next: `create ResourceGroup/${ownerName}, or change spec.owner of UserAssignedIdentity/${identityName}`,
    });

    const text = await explain([]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(25);
    expect(text.stdout).toContain(
      `UserAssignedIdentity/${identityName} is not Ready.\nwaits for ResourceGroup/${ownerName} (spec.owner)\ncause:   ResourceGroup/${ownerName}: Missing\n`,
    );
    expect(text.stdout).toContain(
      `next:    create ResourceGroup/${ownerName}, or change spec.owner of UserAssignedIdentity/${identityName}`,
    );
    // Nothing of the identity reached ARM while its owner was missing.
    expect(arm.requests().filter((r) => /userAssignedIdentities/i.test(r.path))).toEqual([]);

    await create(admin, resourceGroup(namespace, ownerName), resourceGroupType);
    await waitForReason(admin, resourceGroupType, namespace, ownerName, 'Succeeded', operatorPace, running);
    const ready = await waitForReason(
      admin,
      userAssignedIdentityType,
      namespace,
      identityName,
      'Succeeded',
      operatorPace,
      running,
    );
    expect(readyOf(ready)).toMatchObject({ status: 'True' });
    expect(readyOf(await readObject(admin, resourceGroupType, namespace, ownerName))).toMatchObject({
      status: 'True',
      reason: 'Succeeded',
    });

    const after = await explainJson();
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
    expect(after.explanation.class).toBe('ready');
    expect(after.explanation.steps).toEqual([
      expect.objectContaining({
        label: `UserAssignedIdentity/${identityName}`,
        state: 'Ready',
        reason: 'Succeeded',
      }),
    ]);
    expect(after.explanation.cause).toMatchObject({ next: 'nothing to do' });
    const text2 = await explain([]);
    expect(text2.code).toBe(0);
    expect(text2.stdout).toBe(`UserAssignedIdentity/${identityName} is Ready: nothing to explain.\n`);
    expect(operator!.foreignConnections()).toEqual([]);
  }, 900_000);
});
