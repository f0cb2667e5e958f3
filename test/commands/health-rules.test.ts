import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, testPlane } from '../fixtures/cluster.ts';
import { type TestKind, testKind } from '../lib/status/fixtures.ts';

interface CrdList {
  items: Array<{
    spec: { group: string; names: { kind: string }; versions: Array<{ served: boolean }> };
    status?: { conditions?: Array<{ type: string; status: string }> };
  }>;
}

/** `group_Kind` of every established, served ASO CRD: what is installed, read from the CRDs, not discovery. */
async function installedAsoKinds(admin: KubeClient): Promise<string[]> {
  const list = await admin.request<CrdList>({
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    subject: { verb: 'list', resource: 'customresourcedefinitions' },
  });
  return list.items
    .filter(
      (crd) =>
        crd.spec.group.endsWith('.azure.com') &&
        crd.spec.versions.some((version) => version.served) &&
        crd.status?.conditions?.some(
          (condition) => condition.type === 'Established' && condition.status === 'True',
        ),
    )
    .map((crd) => `${crd.spec.group}_${crd.spec.names.kind}`)
    .sort();
}

const prefix = 'resource.customizations.health.';

describe('kubectl aso health-rules on the real control plane', () => {
  let admin: KubeClient;
  let fresh: TestKind;

  beforeAll(async () => {
    admin = await adminClient();
    fresh = await testKind('HealthRulesProbe');
  });

  it('--argocd lists exactly the ASO kinds installed, one Lua rule each, sorted', async () => {
    const before = await installedAsoKinds(admin);
    const run = await runCli(['health-rules', '--argocd', '-o', 'json'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    const after = await installedAsoKinds(admin);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const patch = JSON.parse(run.stdout) as {
      kind: string;
      metadata: { name: string };
      data: Record<string, string>;
    };
    expect(patch).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'argocd-cm' } });
    const keys = Object.keys(patch.data);
    const listed = keys.map((key) => key.slice(prefix.length));
    expect(keys.every((key) => key.startsWith(prefix))).toBe(true);
    expect(listed).toContain(`${fresh.group}_${fresh.kind}`);
    // Other test files may install CRDs meanwhile: everything installed before is listed, nothing not installed after.
    expect(before.filter((kind) => !listed.includes(kind))).toEqual([]);
    expect(listed.filter((kind) => !after.includes(kind))).toEqual([]);
    const groupAndKind = listed.map((key) => key.split('_') as [string, string]);
    expect(groupAndKind).toEqual(
      [...groupAndKind].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1])),
    );
    expect(patch.data[`${prefix}${fresh.group}_${fresh.kind}`]).toContain('return hs');
  });

  it('--flux prints healthCheckExprs in YAML for the same kinds', async () => {
    const run = await runCli(['health-rules', '--flux'], { KUBECONFIG: testPlane().kubeconfig });
    expect(run.code).toBe(0);
    const rules = parse(run.stdout) as {
      spec: { healthCheckExprs: Array<{ apiVersion: string; kind: string; current: string }> };
    };
    const entry = rules.spec.healthCheckExprs.find((item) => item.kind === fresh.kind);
    expect(entry).toMatchObject({ apiVersion: `${fresh.group}/${fresh.version}` });
    expect(entry?.current).toContain("== 'current'");
  });

  it('--kind keeps only the kinds named, and a name that matches none is exit 7', async () => {
    const kubeconfig = { KUBECONFIG: testPlane().kubeconfig };
    const one = await runCli(
      ['health-rules', '--argocd', '--kind', `${fresh.kind}.${fresh.group}`, '-o', 'json'],
      kubeconfig,
    );
    expect(one.code).toBe(0);
    expect(Object.keys((JSON.parse(one.stdout) as { data: object }).data)).toEqual([
      `${prefix}${fresh.group}_${fresh.kind}`,
    ]);
    const none = await runCli(['health-rules', '--flux', '--kind', 'NoSuchKindAnywhere'], kubeconfig);
    expect(none.code).toBe(7);
    expect(none.stderr).toContain('--kind NoSuchKindAnywhere');
  });

  it('refuses --argocd with --flux, or neither, with exit 2', async () => {
    const both = await runCli(['health-rules', '--argocd', '--flux'], { KUBECONFIG: testPlane().kubeconfig });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--argocd and --flux are exclusive');
    const neither = await runCli(['health-rules'], { KUBECONFIG: testPlane().kubeconfig });
    expect(neither.code).toBe(2);
  });

  it('names the missing ASO CRDs with exit 7 when --crds holds none, and an empty folder as bad input', async () => {
    const other = mkdtempSync(join(tmpdir(), 'no-crds-'));
    writeFileSync(
      join(other, 'other.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: example.com, names: {kind: Thing}}\n',
    );
    const run = await runCli(['health-rules', '--flux', '--all', '--crds', other]);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain(`no ASO resource types found in ${other}`);
    expect(run.stdout).toBe('');
    // A folder with no manifest at all is refused by the manifest reader, as for every other -f.
    const empty = mkdtempSync(join(tmpdir(), 'no-crds-'));
    const none = await runCli(['health-rules', '--flux', '--all', '--crds', empty]);
    expect(none.code).toBe(9);
    expect(none.stderr).toContain(empty);
    expect(none.stdout).toBe('');
  });
});
