import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { printable } from '../../src/lib/render/printable.ts';
import { applyObject, type Placement } from '../control-plane/apply.ts';
import type { Plane } from '../control-plane/plane.ts';
import { isAlive, waitUntil } from '../control-plane/processes.ts';
import type { ArmEmulator } from '../fixtures/arm-emulator/index.ts';
import type { LoopbackProxy } from '../fixtures/arm-emulator/proxy.ts';
import { evaluateRules } from '../fixtures/gitops-evaluator.ts';
import {
  goForOperator,
  operatorControllerBinary,
  type RunningOperator,
  startOperator,
} from '../fixtures/operator-controller.ts';
import { startSurroundings, stopSurroundings } from '../fixtures/operator-surroundings.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import { agreement, rulesOf } from '../lib/health-rules/rules.ts';
import {
  type AsoObject,
  create,
  type OperatorCondition,
  readObject,
  readyOf,
  remove,
  resourceGroup,
  resourceGroupType,
  storageAccount,
  storageAccountType,
  waitForReason,
} from './aso-objects.ts';
import { itemNamed, statusJson, statusTable } from './status-cli.ts';

const neededBy = 'test/operator/conditions.plane.test.ts';
const go = goForOperator(neededBy);
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);

/** Long enough for the operator's own backoff on this loaded machine (its fast retries reach 30 s). */
const operatorPace = 240_000;

const subscriptionId = randomUUID();
const groupId = (name: string) => `/subscriptions/${subscriptionId}/resourceGroups/${name}`;
const invalidMessage = "The value 'westus' of parameter 'location' is not valid for this subscription.";
const lockedMessage =
  "The scope 'locked-rg' cannot perform delete operation because following scope(s) are locked: 'locked-rg'. Please remove the lock and try again.";
const fatalMessage = "The request content was invalid: the tag 'kubectl-aso-test' is not accepted.";

/** One case: its own namespace, so that `status -n` reports exactly its objects. */
const cases = {
  progress: { namespace: 'cond-progress', name: 'held-rg' },
  owner: { namespace: 'cond-owner', name: 'ownedsa1', owner: 'owner-rg' },
  skip: { namespace: 'cond-skip', name: 'skipped-rg' },
  forbidden: { namespace: 'cond-forbidden', name: 'forbidden-rg' },
  invalid: { namespace: 'cond-invalid', name: 'invalid-rg' },
  fatal: { namespace: 'cond-fatal', name: 'fatal-rg' },
  deleting: { namespace: 'cond-delete', name: 'deleted-rg' },
  locked: { namespace: 'cond-locked', name: 'locked-rg' },
} as const;

/**
 * `kubectl aso status` against ASO v2.20.0's own controller: objects that drive the operator into each of
 * the Ready conditions it writes, and for each, what `status` printed (JSON and the table), summarised and
 * exited with, compared with the condition as the operator wrote it on the object.
 */
describe.skipIf(!go || !crds.present)("kubectl aso status on the operator's own conditions", () => {
  const stateDir = resolve(
    new URL('../..', import.meta.url).pathname,
    `.local/operator-conditions-${process.pid}`,
  );
  let plane: Plane;
  let admin: KubeClient;
  let arm: ArmEmulator;
  let proxy: LoopbackProxy;
  let operator: RunningOperator | undefined;
  let releaseHeldPut: () => void = () => undefined;

  const running = () => isAlive(operator?.pid);
  const kubeconfig = () => plane.kubeconfig;
  const armTraffic = (name: string) =>
    arm
      .requests()
      .filter((r) => r.path.split('?')[0]!.toLowerCase().endsWith(groupId(name).toLowerCase()))
      .map((r) => `${r.method} ${r.status}`);
  const settle = (type: Placement, namespace: string, name: string, reason: string) =>
    waitForReason(admin, type, namespace, name, reason, operatorPace, running);

  /**
   * What every report of one object must say: the operator's condition exactly as written (status, severity,
   * reason, message, transition time), in the state kubectl-aso classifies it as.
   */
  async function expectReported(
    type: Placement,
    namespace: string,
    name: string,
    state: string,
  ): Promise<OperatorCondition> {
    const written = readyOf(await readObject(admin, type, namespace, name))!;
    const { code, report } = await statusJson(kubeconfig(), ['-n', namespace]);
    expect(code).toBe(0);
    expect(itemNamed(report, name)).toEqual(
      expect.objectContaining({
        namespace,
        // Listed at the group's preferred version (v2.20.0 prefers a newer one than the tests write).
        group: type.group,
        state,
        stale: false,
        ready: state === 'Ready',
        severity: written.severity ?? '',
        reason: written.reason,
        message: written.message ?? '',
        lastTransitionTime: written.lastTransitionTime,
      }),
    );
    // The condition did not move while status read it: the comparison above was with what it read.
    expect(readyOf(await readObject(admin, type, namespace, name))).toEqual(written);

    const table = await statusTable(kubeconfig(), ['-n', namespace]);
    expect(table.code).toBe(0);
    expect(table.rows.find((row) => row.NAME === name)).toEqual(
      expect.objectContaining({
        NAMESPACE: namespace,
        STATE: state,
        SEVERITY: written.severity ?? '',
        REASON: written.reason,
        // The table folds a multi-line message (the operator's skip message is a whole HTTP dump) onto one line.
        MESSAGE: printable(written.message ?? ''),
      }),
    );
    return written;
  }

  /** The exit code of `status -n NAMESPACE --fail-on LEVEL`. */
  const failOn = async (namespace: string, level: string) =>
    (await statusJson(kubeconfig(), ['-n', namespace, '--fail-on', level])).code;

  beforeAll(async () => {
    await operatorControllerBinary();
    ({ arm, proxy, plane, admin } = await startSurroundings(stateDir, {
      longRunningPolls: 2,
      forbidden: [groupId(cases.forbidden.name)],
      injectedErrors: [
        {
          method: 'PUT',
          idPrefix: groupId(cases.invalid.name),
          status: 400,
          code: 'InvalidParameter',
          message: invalidMessage,
        },
        {
          method: 'DELETE',
          idPrefix: groupId(cases.locked.name),
          status: 409,
          code: 'ScopeLocked',
          message: lockedMessage,
        },
        {
          method: 'PUT',
          bodyContains: '"kubectl-aso-test":"fatal"',
          status: 400,
          code: 'InvalidRequestContent',
          message: fatalMessage,
        },
      ],
    }));
    operator = await startOperator({
      plane,
      admin,
      arm,
      proxy,
      crdFiles: [
        join(crds.path, 'resources.azure.com_resourcegroups.yaml'),
        join(crds.path, 'storage.azure.com_storageaccounts.yaml'),
      ],
      settings: { AZURE_SUBSCRIPTION_ID: subscriptionId },
    });
    for (const { namespace } of Object.values(cases)) {
      await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    }
    // Everything starts at once, so that the operator works on all of it while the tests look at each.
    releaseHeldPut = arm.hold(groupId(cases.progress.name));
    const { progress, owner, skip, forbidden, invalid, fatal, deleting, locked } = cases;
    await create(admin, resourceGroup(progress.namespace, progress.name), resourceGroupType);
    await create(admin, storageAccount(owner.namespace, owner.name, owner.owner), storageAccountType);
    await create(
      admin,
      resourceGroup(skip.namespace, skip.name, {
        annotations: { 'serviceoperator.azure.com/reconcile-policy': 'skip' },
      }),
      resourceGroupType,
    );
    await create(admin, resourceGroup(forbidden.namespace, forbidden.name), resourceGroupType);
    await create(admin, resourceGroup(invalid.namespace, invalid.name), resourceGroupType);
    await create(
      admin,
      resourceGroup(fatal.namespace, fatal.name, { tags: { 'kubectl-aso-test': 'fatal' } }),
      resourceGroupType,
    );
    await create(admin, resourceGroup(deleting.namespace, deleting.name), resourceGroupType);
    await create(admin, resourceGroup(locked.namespace, locked.name), resourceGroupType);
  }, 3_600_000);

  afterAll(async () => {
    releaseHeldPut();
    await stopSurroundings(stateDir, { operator, proxy, arm });
  }, 120_000);

  it('reports Reconciling (Info) as Progressing while the PUT is in flight; --wait returns once the operator makes it Ready', async () => {
    const { namespace, name } = cases.progress;
    await settle(resourceGroupType, namespace, name, 'Reconciling');
    // The operator's PUT was accepted and its operation is still running (held): nothing else yet.
    expect(armTraffic(name)).toEqual(['PUT 201']);

    const written = await expectReported(resourceGroupType, namespace, name, 'Progressing');
    expect(written).toMatchObject({ status: 'False', severity: 'Info', reason: 'Reconciling' });
    const { report } = await statusJson(kubeconfig(), ['-n', namespace]);
    expect(report.summary).toEqual({
      total: 1,
      byState: { Ready: 0, Progressing: 1, Deleting: 0, Unknown: 0, Warning: 0, Error: 0 },
      byReason: { Reconciling: 1 },
      byKind: { 'ResourceGroup.resources.azure.com': 1 },
    });
    const table = await statusTable(kubeconfig(), ['-n', namespace]);
    expect(table.summary.slice(0, 2)).toEqual([
      '1 resource: 1 Progressing',
      'top reasons (not Ready): Reconciling 1',
    ]);
    expect(await failOn(namespace, 'warning')).toBe(0);
    expect(await failOn(namespace, 'not-ready')).toBe(11);
    // Checked once with --timeout 0, a resource still reconciling is a wait that timed out.
    expect((await statusJson(kubeconfig(), ['-n', namespace, '--wait', '--timeout', '0'])).code).toBe(12);

    releaseHeldPut();
    const waited = await statusJson(kubeconfig(), ['-n', namespace, '--wait', '--timeout', '240s']);
    expect(waited.code).toBe(0);
    expect(itemNamed(waited.report, name)).toMatchObject({
      state: 'Ready',
      ready: true,
      severity: '',
      reason: 'Succeeded',
    });
    const ready = readyOf(await readObject(admin, resourceGroupType, namespace, name));
    expect(ready).toMatchObject({ status: 'True', reason: 'Succeeded' });
    expect(ready?.severity ?? '').toBe('');
    expect(armTraffic(name).slice(-1)).toEqual(['GET 200']);
    await expectReported(resourceGroupType, namespace, name, 'Ready');
  }, 600_000);

  it('reports WaitingForOwner (Warning) on a StorageAccount whose ResourceGroup is missing; --wait returns once the owner is made and both are Ready', async () => {
    const { namespace, name, owner } = cases.owner;
    await settle(storageAccountType, namespace, name, 'WaitingForOwner');
    const written = await expectReported(storageAccountType, namespace, name, 'Warning');
    expect(written).toMatchObject({ status: 'False', severity: 'Warning', reason: 'WaitingForOwner' });
    expect(written.message).toContain(owner);
    expect(await failOn(namespace, 'error')).toBe(0);
    expect(await failOn(namespace, 'warning')).toBe(11);
    const table = await statusTable(kubeconfig(), ['-n', namespace]);
    expect(table.summary.slice(0, 2)).toEqual([
      '1 resource: 1 Warning',
      'top reasons (not Ready): WaitingForOwner 1',
    ]);
    // The operator sent nothing to ARM for the account while its owner was missing.
    expect(arm.requests().filter((r) => /storageAccounts/i.test(r.path))).toEqual([]);

    await create(admin, resourceGroup(namespace, owner), resourceGroupType);
    // --fail-on warning is judged on the final state: the Warning the owner's arrival resolved does not count.
    const waited = await statusJson(kubeconfig(), [
      '-n',
      namespace,
      '--wait',
      '--timeout',
      '300s',
      '--fail-on',
      'warning',
    ]);
    expect(waited.code).toBe(0);
    expect(waited.report.items.map((item) => [item.kind, item.name, item.state, item.reason])).toEqual([
      ['ResourceGroup', owner, 'Ready', 'Succeeded'],
      ['StorageAccount', name, 'Ready', 'Succeeded'],
    ]);
    expect(readyOf(await readObject(admin, storageAccountType, namespace, name))).toMatchObject({
      status: 'True',
      reason: 'Succeeded',
    });
    const accountPuts = arm
      .requests()
      .filter((r) => r.method === 'PUT' && /storageAccounts\/ownedsa1\?/i.test(r.path));
    expect(accountPuts.map((r) => r.status)).toEqual([201]);
  }, 600_000);

  it('reports AzureResourceNotFound (Warning) for reconcile-policy skip on a resource missing in Azure, which the operator only read', async () => {
    const { namespace, name } = cases.skip;
    await settle(resourceGroupType, namespace, name, 'AzureResourceNotFound');
    const written = await expectReported(resourceGroupType, namespace, name, 'Warning');
    expect(written).toMatchObject({ status: 'False', severity: 'Warning', reason: 'AzureResourceNotFound' });
    expect(written.message).toContain('ResourceGroupNotFound');
    expect(new Set(armTraffic(name))).toEqual(new Set(['GET 404']));
    expect(await failOn(namespace, 'error')).toBe(0);
    expect(await failOn(namespace, 'warning')).toBe(11);
  }, 600_000);

  it('reports AuthorizationFailed from a forbidden scope as the Warning the operator wrote (it keeps retrying)', async () => {
    const { namespace, name } = cases.forbidden;
    await settle(resourceGroupType, namespace, name, 'AuthorizationFailed');
    const written = await expectReported(resourceGroupType, namespace, name, 'Warning');
    expect(written).toMatchObject({ status: 'False', severity: 'Warning', reason: 'AuthorizationFailed' });
    // The message is ARM's own, carried through the operator untouched.
    expect(written.message).toBe(
      `The client '${arm.clientId}' with object id '${arm.clientId}' does not have authorization to perform action 'Microsoft.Resources/resourceGroups/write' over scope '${groupId(name)}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
    );
    expect(armTraffic(name)[0]).toBe('PUT 403');
    expect(await failOn(namespace, 'error')).toBe(0);
    expect(await failOn(namespace, 'warning')).toBe(11);
  }, 600_000);

  it('reports an injected InvalidParameter as the Warning the operator wrote (retried slowly)', async () => {
    const { namespace, name } = cases.invalid;
    await settle(resourceGroupType, namespace, name, 'InvalidParameter');
    const written = await expectReported(resourceGroupType, namespace, name, 'Warning');
    expect(written).toMatchObject({
      status: 'False',
      severity: 'Warning',
      reason: 'InvalidParameter',
      message: invalidMessage,
    });
    expect(armTraffic(name)).toEqual(['PUT 400']);
    expect(await failOn(namespace, 'error')).toBe(0);
    expect(await failOn(namespace, 'warning')).toBe(11);
  }, 600_000);

  it('reports a fatal ARM error as Error; --wait --fail-on error stops on it with exit 11', async () => {
    const { namespace, name } = cases.fatal;
    await settle(resourceGroupType, namespace, name, 'InvalidRequestContent');
    const written = await expectReported(resourceGroupType, namespace, name, 'Error');
    expect(written).toMatchObject({
      status: 'False',
      severity: 'Error',
      reason: 'InvalidRequestContent',
      message: fatalMessage,
    });
    expect(armTraffic(name)).toEqual(['PUT 400']);
    expect(await failOn(namespace, 'error')).toBe(11);
    const waited = await statusJson(kubeconfig(), [
      '-n',
      namespace,
      '--wait',
      '--timeout',
      '240s',
      '--fail-on',
      'error',
    ]);
    expect(waited.code).toBe(11);
    expect(itemNamed(waited.report, name)).toMatchObject({ state: 'Error', reason: 'InvalidRequestContent' });
  }, 600_000);

  it('reports Deleting (Info) while the operator waits on its DELETE in Azure, and nothing once it is gone', async () => {
    const { namespace, name } = cases.deleting;
    const before = await statusJson(kubeconfig(), ['-n', namespace, '--wait', '--timeout', '240s']);
    expect(before.code).toBe(0);
    const release = arm.hold(groupId(name));
    try {
      await remove(admin, resourceGroupType, namespace, name);
      const deleting: AsoObject = await settle(resourceGroupType, namespace, name, 'Deleting');
      expect(deleting.metadata.deletionTimestamp).toEqual(expect.any(String));
      expect(armTraffic(name).filter((step) => step.startsWith('DELETE'))).toEqual(['DELETE 202']);
      const written = await expectReported(resourceGroupType, namespace, name, 'Deleting');
      expect(written).toMatchObject({ status: 'False', severity: 'Info', reason: 'Deleting' });
      expect(await failOn(namespace, 'warning')).toBe(0);
      expect(await failOn(namespace, 'not-ready')).toBe(11);
      const table = await statusTable(kubeconfig(), ['-n', namespace]);
      expect(table.summary.slice(0, 2)).toEqual([
        '1 resource: 1 Deleting',
        'top reasons (not Ready): Deleting 1',
      ]);
    } finally {
      release();
    }
    await waitUntil(
      'the deleted ResourceGroup to be gone',
      async () => (await readObject(admin, resourceGroupType, namespace, name)) === undefined,
      operatorPace,
      running,
    );
    const after = await statusJson(kubeconfig(), ['-n', namespace]);
    expect(after.report.items).toEqual([]);
  }, 600_000);

  it('reports a deletion ARM refuses (ScopeLocked) as the Warning the operator wrote, not as Deleting', async () => {
    const { namespace, name } = cases.locked;
    expect((await statusJson(kubeconfig(), ['-n', namespace, '--wait', '--timeout', '240s'])).code).toBe(0);
    await remove(admin, resourceGroupType, namespace, name);
    const refused = await settle(resourceGroupType, namespace, name, 'ScopeLocked');
    expect(refused.metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(refused.metadata.finalizers).toContain('serviceoperator.azure.com/finalizer');
    expect(armTraffic(name).filter((step) => step.startsWith('DELETE'))[0]).toBe('DELETE 409');
    // The operator makes every delete failure a Warning: the deletion timestamp cannot be set twice, so it retries.
    const written = await expectReported(resourceGroupType, namespace, name, 'Warning');
    expect(written).toMatchObject({
      status: 'False',
      severity: 'Warning',
      reason: 'ScopeLocked',
      message: lockedMessage,
    });
    expect(await failOn(namespace, 'error')).toBe(0);
    expect(await failOn(namespace, 'warning')).toBe(11);
  }, 600_000);

  it('summarises every condition the operator wrote across namespaces, and exits on the worst', async () => {
    const all = await statusJson(kubeconfig(), ['-A', '--fail-on', 'error']);
    expect(all.code).toBe(11);
    expect(all.report.summary).toEqual({
      total: 8,
      byState: { Ready: 3, Progressing: 0, Deleting: 0, Unknown: 0, Warning: 4, Error: 1 },
      byReason: {
        Succeeded: 3,
        AuthorizationFailed: 1,
        AzureResourceNotFound: 1,
        InvalidParameter: 1,
        InvalidRequestContent: 1,
        ScopeLocked: 1,
      },
      byKind: { 'ResourceGroup.resources.azure.com': 7, 'StorageAccount.storage.azure.com': 1 },
    });
    expect(await statusJson(kubeconfig(), ['-A', '--fail-on', 'warning']).then((r) => r.code)).toBe(11);
    const table = await statusTable(kubeconfig(), ['-A', '--sort', 'state']);
    expect(table.rows.map((row) => row.STATE)).toEqual([
      'Error',
      'Warning',
      'Warning',
      'Warning',
      'Warning',
      'Ready',
      'Ready',
      'Ready',
    ]);
    expect(table.summary[0]).toBe('8 resources: 3 Ready, 4 Warning, 1 Error');
    expect(operator!.foreignConnections()).toEqual([]);
  }, 600_000);

  it('gets the verdicts status gives from the generated Argo CD and Flux rules, on every object the operator wrote', async () => {
    const group = { ...resourceGroupType, kind: 'ResourceGroup' };
    const account = { ...storageAccountType, kind: 'StorageAccount' };
    const placed: Array<{ type: Placement & { kind: string }; namespace: string; name: string }> = [
      ...Object.values(cases).map(({ namespace, name }) => ({ type: group, namespace, name })),
      { type: group, namespace: cases.owner.namespace, name: cases.owner.owner },
      { type: account, namespace: cases.owner.namespace, name: cases.owner.name },
    ];
    const disagreements: string[] = [];
    const seen: string[] = [];
    for (const { type, namespace, name } of placed) {
      const object = await readObject(admin, type, namespace, name);
      if (!object) continue; // the case whose deletion finished
      const [answer] = await evaluateRules(rulesOf([type]), [object]);
      const verdict = answer?.verdicts[0];
      if (!verdict) throw new Error(`no verdict for ${namespace}/${name}: ${JSON.stringify(answer)}`);
      seen.push(verdict.argocd);
      for (const problem of agreement(object, verdict))
        disagreements.push(`${namespace}/${name}: ${problem}`);
    }
    expect(disagreements).toEqual([]);
    expect(new Set(seen)).toEqual(new Set(['Healthy', 'Progressing', 'Degraded']));
  }, 600_000);
});
