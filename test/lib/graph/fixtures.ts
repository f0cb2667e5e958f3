import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { applyObject } from '../../control-plane/apply.ts';
import { adminClient, uniqueSuffix } from '../../fixtures/cluster.ts';
import { sharedData } from '../../fixtures/shared-data.ts';
import { type AppliedCrd, applyCrdAsKind, type TestKind } from '../status/fixtures.ts';

/** ASO v2.20.0's CRDs, for graph tests on the control plane. */
export const v220Crds = sharedData('real-aso-crds/v2.20.0', 'the graph tests (ASO v2.20.0 CRDs)');

/** The CRD files the graph tests apply: a resource group, a PostgreSQL server and its database. */
const graphCrdFiles = [
  'resources.azure.com_resourcegroups.yaml',
  'dbforpostgresql.azure.com_flexibleservers.yaml',
  'dbforpostgresql.azure.com_flexibleserversdatabases.yaml',
];

/**
 * Applies real v2.20.0 CRDs with every group of theirs given a label of this run, in the whole text
 * (`resources.azure.com` becomes `resources.g<random>.azure.com` in the group, the name and in the owner
 * descriptions that name the owner's type), so that the graph reads the owner types the schemas give and
 * no other test's CRDs or objects meet these. Returns the kinds at the version discovery serves first.
 */
export async function applyGraphCrds(): Promise<Record<string, TestKind>> {
  const admin = await adminClient();
  const label = `g${uniqueSuffix()}`;
  const groups = ['resources.azure.com', 'dbforpostgresql.azure.com'];
  const kinds: Record<string, TestKind> = {};
  for (const file of graphCrdFiles) {
    let text = readFileSync(join(v220Crds.path, file), 'utf8');
    for (const group of groups)
      text = text.replaceAll(group, group.replace(/\.azure\.com$/, `.${label}.azure.com`));
    const crd = parse(text) as AppliedCrd;
    kinds[crd.spec.names.kind] = await applyCrdAsKind(admin, crd);
  }
  return kinds;
}

/** Creates an ASO object with the given spec and, when given, a Ready condition written through status. */
export async function createAso(
  kind: TestKind,
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
  annotations?: Record<string, string>,
): Promise<void> {
  const admin = await adminClient();
  await applyObject(
    admin,
    {
      apiVersion: `${kind.group}/${kind.version}`,
      kind: kind.kind,
      metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
      spec: { azureName: name, ...spec },
    },
    kind,
  );
  if (status) {
    await admin.request({
      method: 'PATCH',
      path: `/apis/${kind.group}/${kind.version}/namespaces/${namespace}/${kind.plural}/${name}/status`,
      contentType: 'application/merge-patch+json',
      body: { status },
      subject: { verb: 'patch', resource: `${kind.plural}/status`, namespace },
    });
  }
}

/** A Ready condition as the operator writes it. */
export function ready(
  status: string,
  severity: string,
  reason: string,
  message = '',
): Record<string, unknown> {
  return {
    conditions: [
      {
        type: 'Ready',
        status,
        severity,
        reason,
        message,
        observedGeneration: 1,
        lastTransitionTime: new Date(Date.now() - 120_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    ],
  };
}
