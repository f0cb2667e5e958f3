import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { applyObject, type Placement, waitForEstablished } from '../../control-plane/apply.ts';
import { adminClient, uniqueSuffix } from '../../fixtures/cluster.ts';
import { sharedDir } from '../../fixtures/shared-data.ts';

/** A custom resource type a test made or applied, with what `--kind` and objects need. */
export interface TestKind extends Placement {
  kind: string;
}

/** The real operator's CRDs, kept outside this repository as test data (see `sharedData`). */
export const realCrdDir = join(sharedDir, 'real-aso-crds');

/**
 * Applies the real ASO CRDs (ResourceGroup, FlexibleServersDatabase, FlexibleServersFirewallRule), exactly
 * as published except for their group, which gets a label of this run (`resources.azure.com` becomes
 * `resources.r<random>.azure.com`): the plane also carries this project's generated CRDs under the real
 * group names, with other versions and stored versions, and the two must not replace each other. Returns
 * their kinds at the storage version.
 */
export async function applyRealCrds(): Promise<Record<string, TestKind>> {
  if (!existsSync(realCrdDir)) throw new Error(`the real ASO CRDs are missing: ${realCrdDir}`);
  const admin = await adminClient();
  const kinds: Record<string, TestKind> = {};
  const label = `r${uniqueSuffix()}`;
  for (const file of readdirSync(realCrdDir).filter((name) => name.endsWith('.yaml'))) {
    const crd = parse(readFileSync(join(realCrdDir, file), 'utf8')) as AppliedCrd;
    crd.spec.group = crd.spec.group.replace(/\.azure\.com$/, `.${label}.azure.com`);
    kinds[crd.spec.names.kind] = await applyCrdAsKind(admin, crd);
  }
  return kinds;
}

/** The parts of a CRD that {@link applyCrdAsKind} reads. */
export type AppliedCrd = KubeObject & {
  spec: {
    group: string;
    names: { kind: string; plural: string };
    versions: Array<{ name: string; storage: boolean }>;
  };
};

/**
 * Applies a (relabelled) CRD under the name its group and plural give, waits until it is established, and
 * returns its kind at the storage version: what the status and graph tests both do with the real CRDs.
 */
export async function applyCrdAsKind(admin: KubeClient, crd: AppliedCrd): Promise<TestKind> {
  crd.metadata = { name: `${crd.spec.names.plural}.${crd.spec.group}` };
  await applyObject(admin, crd);
  await waitForEstablished(admin, crd.metadata.name);
  const storage = crd.spec.versions.find((version) => version.storage)?.name ?? '';
  return {
    group: crd.spec.group,
    version: storage,
    plural: crd.spec.names.plural,
    namespaced: true,
    kind: crd.spec.names.kind,
  };
}

/**
 * A new ASO-like CRD under a group of its own (`<random>.test.azure.com`, so that `status` discovers it and
 * no other test sees its objects), with a status subresource and a schema that keeps any field.
 */
export async function testKind(
  kind: string,
  options: { shortNames?: string[]; group?: string } = {},
): Promise<TestKind> {
  const group = options.group ?? `s${uniqueSuffix()}.test.azure.com`;
  const plural = `${kind.toLowerCase()}s`;
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  const admin = await adminClient();
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: {
        plural,
        singular: kind.toLowerCase(),
        kind,
        listKind: `${kind}List`,
        ...(options.shortNames ? { shortNames: options.shortNames } : {}),
      },
      versions: [
        { name: 'v1api20240101', served: true, storage: true, schema, subresources: { status: {} } },
      ],
    },
  });
  await waitForEstablished(admin, `${plural}.${group}`);
  return { group, version: 'v1api20240101', plural, namespaced: true, kind };
}

/** A Ready condition as the operator writes one. */
export interface ReadyCondition {
  status: 'True' | 'False' | 'Unknown' | string;
  severity?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/** How one test object should look: its Ready condition (none when null), labels, and so on. */
export interface ObjectSpec {
  name: string;
  ready: ReadyCondition | null;
  labels?: Record<string, string>;
  /** Changes the spec after the status is written, so the condition describes an older generation. */
  stale?: boolean;
  /** Gives the object a finalizer and deletes it, so it keeps a deletion timestamp. */
  deleting?: boolean;
  /** Extra spec fields the kind's schema requires. */
  spec?: Record<string, unknown>;
}

/** Merge-patches the Ready condition through the status subresource, as the operator does. */
export async function writeReady(
  client: KubeClient,
  kind: TestKind,
  namespace: string,
  name: string,
  ready: ReadyCondition | null,
): Promise<void> {
  const conditions = ready
    ? [
        {
          type: 'Ready',
          lastTransitionTime: ready.lastTransitionTime ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          observedGeneration: ready.observedGeneration ?? 1,
          reason: ready.reason ?? '',
          ...ready,
        },
      ]
    : [];
  await client.request({
    method: 'PATCH',
    path: resourcePath(kind, namespace, name, 'status'),
    contentType: 'application/merge-patch+json',
    body: { status: { conditions } },
    subject: { verb: 'patch', resource: `${kind.plural}/status`, namespace },
  });
}

/** Creates an object, writes its status through the subresource, then makes it stale or deleting if asked. */
export async function createObject(kind: TestKind, namespace: string, spec: ObjectSpec): Promise<void> {
  const admin = await adminClient();
  await applyObject(
    admin,
    {
      apiVersion: `${kind.group}/${kind.version}`,
      kind: kind.kind,
      metadata: {
        name: spec.name,
        namespace,
        ...(spec.labels ? { labels: spec.labels } : {}),
        ...(spec.deleting ? { finalizers: ['test.azure.com/keep'] } : {}),
      },
      spec: { azureName: spec.name, ...spec.spec },
    },
    kind,
  );
  if (spec.ready) await writeReady(admin, kind, namespace, spec.name, spec.ready);
  if (spec.stale) {
    await admin.request({
      method: 'PATCH',
      path: resourcePath(kind, namespace, spec.name),
      contentType: 'application/merge-patch+json',
      body: { spec: { tags: { changed: uniqueSuffix() } } },
      subject: { verb: 'patch', resource: kind.plural, namespace },
    });
  }
  if (spec.deleting) {
    await admin.request({
      method: 'DELETE',
      path: resourcePath(kind, namespace, spec.name),
      subject: { verb: 'delete', resource: kind.plural, namespace },
    });
  }
}

/** Creates many objects with a bounded number of requests in flight. */
export async function createObjects(
  kind: TestKind,
  namespace: string,
  specs: ObjectSpec[],
  parallel = 16,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < specs.length) await createObject(kind, namespace, specs[next++] as ObjectSpec);
    }),
  );
}
