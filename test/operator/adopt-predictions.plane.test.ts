import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { AdoptItem, AdoptReport } from '../../src/lib/adoption/report.ts';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { NotFound } from '../../src/lib/kube/errors.ts';
import { applyObject } from '../control-plane/apply.ts';
import type { Plane } from '../control-plane/plane.ts';
import { waitUntil } from '../control-plane/processes.ts';
import type { ArmEmulator, SeedResource } from '../fixtures/arm-emulator/index.ts';
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
import { bodyChanges, requestsOn, valueAt, withChanges } from './arm-writes.ts';

const neededBy = 'test/operator/adopt-predictions.plane.test.ts';
const go = goForOperator(neededBy);
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);

/** The kinds in use: resource groups, and a kind they own (its real CRD, a small one). */
const kinds = {
  ResourceGroup: { group: 'resources.azure.com', version: 'v1api20200601', plural: 'resourcegroups' },
  UserAssignedIdentity: {
    group: 'managedidentity.azure.com',
    version: 'v1api20230131',
    plural: 'userassignedidentities',
  },
} as const;
type Kind = keyof typeof kinds;
const apiVersionOf: Record<Kind, string> = {
  ResourceGroup: '2020-06-01',
  UserAssignedIdentity: '2023-01-31',
};
const policyAnnotation = 'serviceoperator.azure.com/reconcile-policy';

/** The first operator's namespaces by their reconcile-policy annotation (none: the operator's default applies). */
const namespaces = { plain: 'predict-plain', manage: 'predict-manage', skip: 'predict-skip' } as const;

/** One object, whether it exists in ARM first, and the answer the case is there to cover. */
interface Case {
  readonly kind?: Kind;
  /** For an owned kind: the ResourceGroup case it lies under. */
  readonly owner?: string;
  readonly name: string;
  readonly namespace: string;
  /** The object's own reconcile-policy annotation, when it has one (`''` too: the operator reads it as none). */
  readonly annotation?: string;
  readonly tags: Record<string, string>;
  /** The tags of the resource group that already exists in ARM; absent when it does not exist. */
  readonly existing?: Record<string, string>;
  readonly covers: Pick<AdoptItem, 'outcome' | 'reconcilePolicy' | 'reconcilePolicySource'>;
}

const withOperatorDefault: readonly Case[] = [
  {
    name: 'pr-create-ns-manage',
    namespace: namespaces.manage,
    tags: { env: 'dev' },
    covers: { outcome: 'create', reconcilePolicy: 'manage', reconcilePolicySource: 'namespace' },
  },
  {
    name: 'pr-create-op-detach',
    namespace: namespaces.plain,
    tags: { env: 'dev' },
    covers: { outcome: 'create', reconcilePolicy: 'detach-on-delete', reconcilePolicySource: 'operator' },
  },
  {
    name: 'pr-adopt-obj-manage',
    namespace: namespaces.plain,
    annotation: 'manage',
    tags: { env: 'prod' },
    existing: { owner: 'team-a' },
    covers: { outcome: 'adopt-manage', reconcilePolicy: 'manage', reconcilePolicySource: 'object' },
  },
  {
    name: 'pr-adopt-ns-manage',
    namespace: namespaces.manage,
    tags: { owner: 'team-c' },
    existing: { owner: 'team-c' },
    covers: { outcome: 'adopt-manage', reconcilePolicy: 'manage', reconcilePolicySource: 'namespace' },
  },
  {
    name: 'pr-adopt-op-detach',
    namespace: namespaces.plain,
    tags: { owner: 'team-b', env: 'test' },
    existing: { owner: 'team-b' },
    covers: {
      outcome: 'adopt-detach-on-delete',
      reconcilePolicy: 'detach-on-delete',
      reconcilePolicySource: 'operator',
    },
  },
  {
    name: 'pr-adopt-obj-detach',
    namespace: namespaces.skip,
    annotation: 'detach-on-delete',
    tags: { owner: 'team-d' },
    existing: { owner: 'team-old' },
    covers: {
      outcome: 'adopt-detach-on-delete',
      reconcilePolicy: 'detach-on-delete',
      reconcilePolicySource: 'object',
    },
  },
  {
    // An unknown value on the object gives the operator's default, not the Namespace's skip.
    name: 'pr-adopt-obj-unknown',
    namespace: namespaces.skip,
    annotation: 'Manage',
    tags: { owner: 'team-e' },
    existing: { owner: 'team-e' },
    covers: {
      outcome: 'adopt-detach-on-delete',
      reconcilePolicy: 'detach-on-delete',
      reconcilePolicySource: 'operator',
    },
  },
  {
    name: 'pr-skip-ns-exists',
    namespace: namespaces.skip,
    tags: { owner: 'someone-else' },
    existing: { owner: 'team-f' },
    covers: { outcome: 'skip-exists', reconcilePolicy: 'skip', reconcilePolicySource: 'namespace' },
  },
  {
    name: 'pr-skip-obj-exists',
    namespace: namespaces.plain,
    annotation: 'skip',
    tags: {},
    existing: { owner: 'team-g' },
    covers: { outcome: 'skip-exists', reconcilePolicy: 'skip', reconcilePolicySource: 'object' },
  },
  {
    name: 'pr-skip-obj-missing',
    namespace: namespaces.plain,
    annotation: 'skip',
    tags: {},
    covers: { outcome: 'skip-missing', reconcilePolicy: 'skip', reconcilePolicySource: 'object' },
  },
  {
    // An empty annotation is no annotation to the operator: the Namespace's skip applies.
    name: 'pr-skip-ns-empty-missing',
    namespace: namespaces.skip,
    annotation: '',
    tags: {},
    covers: { outcome: 'skip-missing', reconcilePolicy: 'skip', reconcilePolicySource: 'namespace' },
  },
  {
    // Owned by a resource group created from the same files: its GET meets ResourceGroupNotFound, and the
    // operator waits for the owner before its PUT.
    kind: 'UserAssignedIdentity',
    owner: 'pr-create-ns-manage',
    name: 'pr-id-create',
    namespace: namespaces.manage,
    tags: { app: 'web' },
    covers: { outcome: 'create', reconcilePolicy: 'manage', reconcilePolicySource: 'namespace' },
  },
  {
    kind: 'UserAssignedIdentity',
    owner: 'pr-adopt-obj-manage',
    name: 'pr-id-adopt',
    namespace: namespaces.plain,
    tags: { app: 'api' },
    existing: { app: 'old', keep: 'no' },
    covers: {
      outcome: 'adopt-detach-on-delete',
      reconcilePolicy: 'detach-on-delete',
      reconcilePolicySource: 'operator',
    },
  },
  {
    kind: 'UserAssignedIdentity',
    owner: 'pr-skip-obj-exists',
    name: 'pr-id-skip-missing',
    namespace: namespaces.plain,
    annotation: 'skip',
    tags: {},
    covers: { outcome: 'skip-missing', reconcilePolicy: 'skip', reconcilePolicySource: 'object' },
  },
];
/** The second operator's cases: no DEFAULT_RECONCILE_POLICY, so `manage` by default. */
const withoutOperatorDefault: readonly Case[] = [
  {
    name: 'pr-create-default',
    namespace: 'predict-default',
    tags: { env: 'dev' },
    covers: { outcome: 'create', reconcilePolicy: 'manage', reconcilePolicySource: 'default' },
  },
  {
    name: 'pr-adopt-default',
    namespace: 'predict-default',
    tags: { env: 'prod', owner: 'team-h' },
    existing: { owner: 'team-h', cost: 'shared' },
    covers: { outcome: 'adopt-manage', reconcilePolicy: 'manage', reconcilePolicySource: 'default' },
  },
  {
    name: 'pr-adopt-ns-detach',
    namespace: 'predict-detach',
    tags: { owner: 'team-i' },
    existing: { owner: 'team-i' },
    covers: {
      outcome: 'adopt-detach-on-delete',
      reconcilePolicy: 'detach-on-delete',
      reconcilePolicySource: 'namespace',
    },
  },
  {
    // An unknown value on the Namespace gives the default (manage), as on the object.
    name: 'pr-create-ns-unknown',
    namespace: 'predict-unknown',
    tags: { env: 'dev' },
    covers: { outcome: 'create', reconcilePolicy: 'manage', reconcilePolicySource: 'default' },
  },
];

/** One operator's settings, the Namespaces (name to reconcile-policy annotation) and the objects. */
interface Scenario {
  readonly title: string;
  readonly settings: Record<string, string>;
  readonly namespaces: Record<string, string | undefined>;
  readonly cases: readonly Case[];
}

const scenarios: readonly Scenario[] = [
  {
    // Not `manage`, so the operator's default shows in what it does.
    title: 'DEFAULT_RECONCILE_POLICY=detach-on-delete',
    settings: { DEFAULT_RECONCILE_POLICY: 'detach-on-delete' },
    namespaces: { [namespaces.plain]: undefined, [namespaces.manage]: 'manage', [namespaces.skip]: 'skip' },
    cases: withOperatorDefault,
  },
  {
    title: 'no DEFAULT_RECONCILE_POLICY',
    settings: {},
    namespaces: {
      'predict-default': undefined,
      'predict-detach': 'detach-on-delete',
      'predict-unknown': 'Skip',
    },
    cases: withoutOperatorDefault,
  },
];

const kindOf = (c: Case): Kind => c.kind ?? 'ResourceGroup';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  severity?: string;
  observedGeneration?: number;
}
interface AsoObject {
  metadata: {
    name: string;
    namespace: string;
    generation?: number;
    ownerReferences?: { kind: string; name: string }[];
    annotations?: Record<string, string>;
  };
  status?: { conditions?: Condition[] };
}

const subscriptionId = randomUUID();
const rgIdOf = (name: string) => `/subscriptions/${subscriptionId}/resourceGroups/${name}`;
const armIdOf = (c: Case) =>
  c.owner
    ? `${rgIdOf(c.owner)}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${c.name}`
    : rgIdOf(c.name);
const seedBodyOf = (tags: Record<string, string>) => ({
  location: 'westus',
  tags,
  properties: { provisioningState: 'Succeeded' },
});
const seedOf = (cases: readonly Case[]): SeedResource[] =>
  cases.flatMap((c) =>
    c.existing ? [{ id: armIdOf(c), apiVersion: apiVersionOf[kindOf(c)], body: seedBodyOf(c.existing) }] : [],
  );

describe('the cases', () => {
  it('cover every outcome, and every place a policy comes from', () => {
    const all = scenarios.flatMap((scenario) => scenario.cases.map((c) => c.covers));
    expect(new Set(all.map((c) => c.outcome))).toEqual(
      new Set(['create', 'adopt-manage', 'adopt-detach-on-delete', 'skip-exists', 'skip-missing']),
    );
    expect(new Set(all.map((c) => c.reconcilePolicySource))).toEqual(
      new Set(['object', 'namespace', 'operator', 'default']),
    );
  });
});

/**
 * adopt-check's predictions held against ASO v2.20.0's own controller: for every outcome and every place a
 * reconcile policy comes from, what adopt-check said before the apply is what the operator then did in ARM
 * (the emulator's log and store), on apply and on delete.
 */
for (const [index, scenario] of scenarios.entries()) {
  describe.skipIf(!go || !crds.present)(
    `adopt-check's predictions against the operator's own controller, ${scenario.title}`,
    () => {
      const { cases } = scenario;
      const stateDir = resolve(
        new URL('../..', import.meta.url).pathname,
        `.local/operator-predict-${index}-${process.pid}`,
      );
      let plane: Plane;
      let admin: KubeClient;
      let arm: ArmEmulator;
      let proxy: LoopbackProxy;
      let operator: RunningOperator | undefined;
      let predicted: Map<string, AdoptItem>;
      /** Where in the emulator's log the apply began. */
      let appliedAt = 0;

      const path = (c: Case) => {
        const { group, version, plural } = kinds[kindOf(c)];
        return `/apis/${group}/${version}/namespaces/${c.namespace}/${plural}/${c.name}`;
      };
      const read = (c: Case) =>
        admin.request<AsoObject>({
          path: path(c),
          subject: { verb: 'get', resource: kinds[kindOf(c)].plural, namespace: c.namespace },
        });
      const prediction = (c: Case) => {
        const item = predicted.get(c.name);
        if (!item) throw new Error(`adopt-check gave no answer for ${c.name}`);
        return item;
      };
      /** Whether the prediction says `kubectl delete` deletes the resource in Azure. */
      const predictsDelete = (item: AdoptItem) =>
        (item.outcome === 'create' || item.outcome === 'adopt-manage') && item.reconcilePolicy === 'manage';

      beforeAll(async () => {
        await operatorControllerBinary();
        ({ arm, proxy, plane, admin } = await startSurroundings(stateDir, {
          seed: seedOf(cases),
          longRunningPolls: 1,
        }));
        operator = await startOperator({
          plane,
          admin,
          arm,
          proxy,
          subscriptionId,
          settings: scenario.settings,
          crdFiles: Object.values(kinds).map(({ group, plural }) =>
            join(crds.path, `${group}_${plural}.yaml`),
          ),
        });
        for (const [name, policy] of Object.entries(scenario.namespaces)) {
          const annotations: Record<string, string> =
            policy === undefined ? {} : { [policyAnnotation]: policy };
          await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations } });
        }
      }, 3_600_000);

      afterAll(async () => {
        await stopSurroundings(stateDir, { operator, proxy, arm });
      }, 120_000);

      const objectOf = (c: Case) => ({
        apiVersion: `${kinds[kindOf(c)].group}/${kinds[kindOf(c)].version}`,
        kind: kindOf(c),
        metadata: {
          name: c.name,
          namespace: c.namespace,
          ...(c.annotation === undefined ? {} : { annotations: { [policyAnnotation]: c.annotation } }),
        },
        spec: { location: 'westus', tags: c.tags, ...(c.owner ? { owner: { name: c.owner } } : {}) },
      });
      const placementOf = (c: Case) => ({ ...kinds[kindOf(c)], namespaced: true });

      it('predicts, before anything is applied and with only GETs, the answer each case is there to cover', async () => {
        const dir = join(stateDir, 'manifests');
        mkdirSync(dir, { recursive: true });
        const file = join(dir, 'resource-groups.yaml');
        writeFileSync(file, cases.map((c) => stringify(objectOf(c))).join('---\n'));
        const run = await runCli(['adopt-check', '-f', file, '-o', 'json'], {
          KUBECONFIG: plane.kubeconfig,
          NODE_EXTRA_CA_CERTS: arm.env.NODE_EXTRA_CA_CERTS,
        });
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const report = JSON.parse(run.stdout) as AdoptReport;
        predicted = new Map(report.items.map((item) => [item.name, item]));
        // The cases cover what they are named for: every outcome, and object, namespace and operator sources.
        for (const c of cases) {
          expect(prediction(c).armId, c.name).toBe(armIdOf(c));
          expect(prediction(c), c.name).toMatchObject({
            name: c.name,
            exists: c.existing !== undefined,
            ...c.covers,
          });
        }
        // A child whose resource group comes from the same files: its GET met ResourceGroupNotFound.
        for (const c of cases.filter((c) => c.owner && !cases.find((o) => o.name === c.owner)?.existing)) {
          if (prediction(c).outcome === 'create')
            expect(prediction(c).reason).toMatch(/parent does not exist yet .*created from the same files/);
        }
        expect(arm.requests().filter((r) => r.method !== 'GET' && r.method !== 'POST')).toEqual([]);
        appliedAt = arm.requests().length;
      });

      it('matches what the operator then does in ARM: PUT creating, PUT adopting, only GETs when skipping', async () => {
        for (const c of cases) await applyObject(admin, objectOf(c), placementOf(c));
        // Every object settles: Ready (at its generation), or a Warning/Error the operator keeps.
        const settled = new Map<string, Condition>();
        await waitUntil(
          'every object to settle under the operator',
          async () => {
            for (const c of cases) {
              if (settled.has(c.name)) continue;
              const object = await read(c);
              const ready = object.status?.conditions?.find((condition) => condition.type === 'Ready');
              const current = ready?.observedGeneration === object.metadata.generation;
              const kept = /Warning|Error/.test(ready?.severity ?? '') && ready?.reason !== 'WaitingForOwner';
              if (ready && current && (ready.status === 'True' || kept)) settled.set(c.name, ready);
            }
            return settled.size === cases.length;
          },
          240_000,
          () => true,
        );

        const afterApply = arm.requests().slice(appliedAt);
        for (const c of cases) {
          const item = prediction(c);
          const onIt = requestsOn(afterApply, armIdOf(c));
          const writes = onIt.filter((r) => r.method !== 'GET');
          const condition = settled.get(c.name)!;
          const label = `${c.name} (predicted ${item.outcome}, policy ${item.reconcilePolicy} from ${item.reconcilePolicySource})`;
          const before = c.existing ? seedBodyOf(c.existing) : undefined;
          const now = arm.resource(armIdOf(c));
          // The ID adopt-check resolved is the one the operator records (what already-managed is told by),
          // spelled the same.
          if (item.outcome !== 'skip-missing')
            expect(
              (await read(c)).metadata.annotations?.['serviceoperator.azure.com/resource-id'],
              label,
            ).toBe(item.armId);
          // An owned object is the operator's child of its owner in the cluster, at the ID predicted under it.
          if (c.owner)
            expect((await read(c)).metadata.ownerReferences, label).toEqual([
              expect.objectContaining({ kind: 'ResourceGroup', name: c.owner }),
            ]);
          switch (item.outcome) {
            case 'create':
              expect(condition, label).toMatchObject({ status: 'True', reason: 'Succeeded' });
              expect(writes[0], label).toMatchObject({ method: 'PUT', status: 201 });
              expect(now?.tags, label).toEqual(c.tags);
              break;
            case 'adopt-manage':
            case 'adopt-detach-on-delete': {
              expect(condition, label).toMatchObject({ status: 'True', reason: 'Succeeded' });
              expect(writes[0], label).toMatchObject({ method: 'PUT', status: 200 });
              // The what-if is what the operator's PUT changed: in the body it sent, and in ARM before/after.
              for (const change of item.changes)
                expect(valueAt(writes[0]!.body, change.path) ?? null, `${label}: ${change.path}`).toEqual(
                  change.to,
                );
              expect(bodyChanges(before!, now!), label).toEqual(
                bodyChanges(before!, withChanges(before!, item.changes)),
              );
              break;
            }
            case 'skip-exists':
              expect(condition, label).toMatchObject({ status: 'True', reason: 'Succeeded' });
              expect(writes, label).toEqual([]);
              expect(onIt.length, label).toBeGreaterThan(0);
              // Nothing was written, so a what-if that said something would change was wrong.
              expect(bodyChanges(before!, now!), label).toEqual(
                bodyChanges(before!, withChanges(before!, item.changes)),
              );
              break;
            case 'skip-missing':
              expect(condition, label).toMatchObject({
                status: 'False',
                reason: 'AzureResourceNotFound',
                severity: 'Warning',
              });
              expect(writes, label).toEqual([]);
              expect(onIt.map((r) => r.status).length, label).toBeGreaterThan(0);
              expect(new Set(onIt.map((r) => r.status)), label).toEqual(new Set([404]));
              expect(now, label).toBeUndefined();
              break;
            default:
              throw new Error(`${label}: no check for this outcome`);
          }
        }
      }, 600_000);

      it('finds no drift with --from-cluster once the operator has reconciled every case, and writes nothing', async () => {
        const before = arm.requests().length;
        const run = await runCli(['adopt-check', '--from-cluster', '-A', '-o', 'json'], {
          KUBECONFIG: plane.kubeconfig,
          NODE_EXTRA_CA_CERTS: arm.env.NODE_EXTRA_CA_CERTS,
        });
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(run.code).toBe(0);
        const report = JSON.parse(run.stdout) as AdoptReport;
        expect(report.items.map((item) => item.name).sort()).toEqual(cases.map((c) => c.name).sort());
        for (const item of report.items) {
          const c = cases.find((candidate) => candidate.name === item.name)!;
          // Every object the operator has recorded an ARM ID on is already-managed (the operator records it on
          // a skipped object too, whether or not the resource exists); one without stays as first predicted.
          const recorded = (await read(c)).metadata.annotations?.['serviceoperator.azure.com/resource-id'];
          expect(item.outcome, item.name).toBe(recorded ? 'already-managed' : prediction(c).outcome);
          expect(item.changes, item.name).toEqual([]);
        }
        expect(
          arm
            .requests()
            .slice(before)
            .filter((r) => r.method !== 'GET' && r.method !== 'POST'),
        ).toEqual([]);
      });

      it('matches what the operator does on delete: a DELETE in ARM only where it said manage', async () => {
        // Owned objects first, checked before their owners go (deleting a resource group in ARM takes
        // everything in it), then the resource groups.
        for (const wave of [cases.filter((c) => c.owner), cases.filter((c) => !c.owner)]) {
          const deletedAt = arm.requests().length;
          for (const c of wave) {
            await admin.request({
              method: 'DELETE',
              path: path(c),
              subject: { verb: 'delete', resource: kinds[kindOf(c)].plural, namespace: c.namespace },
            });
          }
          await waitUntil(
            'the objects to be gone',
            async () => {
              for (const c of wave) {
                const gone = await read(c).then(
                  () => false,
                  (error: unknown) => error instanceof NotFound,
                );
                if (!gone) return false;
              }
              return true;
            },
            240_000,
            () => true,
          );
          const afterDelete = arm.requests().slice(deletedAt);
          for (const c of wave) {
            const item = prediction(c);
            const label = `${c.name} (predicted ${item.outcome}, policy ${item.reconcilePolicy})`;
            const deletes = requestsOn(afterDelete, armIdOf(c)).filter((r) => r.method === 'DELETE');
            const stillThere = arm.resource(armIdOf(c)) !== undefined;
            if (predictsDelete(item)) {
              expect(
                deletes.map((r) => r.status),
                label,
              ).toEqual([202]);
              expect(stillThere, label).toBe(false);
            } else {
              expect(deletes, label).toEqual([]);
              expect(stillThere, label).toBe(item.outcome !== 'skip-missing');
            }
          }
        }
      }, 600_000);

      it('sent nothing off loopback', () => {
        expect(operator!.foreignConnections()).toEqual([]);
        expect([...new Set(proxy.tunnels())]).toEqual(['login.microsoftonline.com:443']);
      });
    },
  );
}

/**
 * A `DEFAULT_RECONCILE_POLICY` the operator does not know: adopt-check cannot answer for an operator that
 * will not run, so it says so, and the operator is shown to refuse it.
 */
describe.skipIf(!go || !crds.present)('an operator default the operator refuses', () => {
  const stateDir = resolve(
    new URL('../..', import.meta.url).pathname,
    `.local/operator-predict-bad-${process.pid}`,
  );
  let plane: Plane;
  let admin: KubeClient;
  let arm: ArmEmulator;
  let proxy: LoopbackProxy;
  const bad = 'Manage';

  beforeAll(async () => {
    await operatorControllerBinary();
    ({ arm, proxy, plane, admin } = await startSurroundings(stateDir, { longRunningPolls: 1 }));
  }, 3_600_000);

  afterAll(async () => {
    await stopSurroundings(stateDir, { proxy, arm });
  }, 120_000);

  it('makes the operator exit at start, and adopt-check warns that its answers assume manage', async () => {
    const { group, plural, version } = kinds.ResourceGroup;
    const started = await startOperator({
      plane,
      admin,
      arm,
      proxy,
      subscriptionId,
      settings: { DEFAULT_RECONCILE_POLICY: bad },
      crdFiles: [join(crds.path, `${group}_${plural}.yaml`)],
    }).then(
      async (running) => {
        await running.stop();
        return undefined;
      },
      (error: unknown) => error as Error,
    );
    expect(started?.message).toMatch(/the process exited/);
    const log = readFileSync(/its log: (\S+)/.exec(started!.message)![1]!, 'utf8');
    expect(log).toContain('DEFAULT_RECONCILE_POLICY must be set to any of');

    const file = join(stateDir, 'rg.yaml');
    writeFileSync(
      file,
      stringify({
        apiVersion: `${group}/${version}`,
        kind: 'ResourceGroup',
        metadata: { name: 'pr-bad-default', namespace: 'default' },
        spec: { location: 'westus' },
      }),
    );
    const run = await runCli(['adopt-check', '-f', file, '-o', 'json'], {
      KUBECONFIG: plane.kubeconfig,
      NODE_EXTRA_CA_CERTS: arm.env.NODE_EXTRA_CA_CERTS,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as AdoptReport;
    expect(report.items[0]).toMatchObject({ reconcilePolicy: 'manage', reconcilePolicySource: 'default' });
    expect(report.warnings).toEqual([expect.stringMatching(/DEFAULT_RECONCILE_POLICY .*refuses to start/)]);
    expect(run.stdout + run.stderr).not.toContain(bad);
  }, 600_000);
});
