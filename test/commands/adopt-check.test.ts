import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli.ts';
import {
  adminClient,
  auditEvents,
  freshNamespace,
  testPlane,
  uniqueSuffix,
  userKubeconfig,
} from '../fixtures/cluster.ts';

function manifest(namespace: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'adopt-check-'));
  const file = path.join(dir, 'rg.yaml');
  writeFileSync(
    file,
    `apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata:\n  name: rg\n  namespace: ${namespace}\nspec:\n  location: westus\n`,
  );
  return file;
}

describe('kubectl aso adopt-check on the real control plane', () => {
  it('names file and line of malformed YAML, exit 9, no stack trace', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'adopt-check-'));
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: [\n  : :\n');
    const run = await runCli(['adopt-check', '-f', file], { KUBECONFIG: testPlane().kubeconfig });
    expect(run.code).toBe(9);
    expect(run.stderr).toMatch(new RegExp(`${file.replace(/[.]/g, '\\.')}:\\d+: malformed YAML`));
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('says where it looked when no credential exists, and suggests --credential local', async () => {
    const ns = await freshNamespace('adopt');
    const run = await runCli(['adopt-check', '-f', manifest(ns), '--operator-namespace', ns], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain(`secret ${ns}/aso-credential`);
    expect(run.stderr).toContain(`secret ${ns}/aso-controller-settings`);
    expect(run.stderr).toContain('--credential local');
  });

  it('names a forbidden credential secret, suggests --credential local, and writes nothing', async () => {
    const ns = await freshNamespace('adopt');
    const user = `adopt-norbac-${uniqueSuffix()}`;
    const run = await runCli(['adopt-check', '-f', manifest(ns), '--operator-namespace', ns], {
      KUBECONFIG: userKubeconfig(user),
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(`secret ${ns}/aso-controller-settings is forbidden`);
    expect(run.stderr).toContain('--credential local');
    expect(auditEvents().filter((event) => event.user.username === user)).toEqual([]);
  });

  it("refuses a credential secret's AZURE_SUBSCRIPTION_ID that is not a GUID, naming the secret, before any ARM GET", async () => {
    const ns = await freshNamespace('adopt');
    const client = await adminClient();
    await client.request({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/secrets`,
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'aso-credential' },
        stringData: {
          AZURE_SUBSCRIPTION_ID: '../../x?y#z',
          AZURE_TENANT_ID: '00000000-0000-0000-0000-000000000001',
          AZURE_CLIENT_ID: '00000000-0000-0000-0000-000000000002',
          AZURE_CLIENT_SECRET: 'not-used',
        },
      },
      subject: { verb: 'create', resource: 'secrets', namespace: ns },
    });
    const run = await runCli(['adopt-check', '-f', manifest(ns), '--operator-namespace', ns], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(run.code).toBe(9);
    expect(run.stderr).toContain(`secret ${ns}/aso-credential`);
    expect(run.stderr).toMatch(/AZURE_SUBSCRIPTION_ID .* is not a subscription ID/);
    expect(run.stderr).not.toContain('not-used');
    expect(run.stdout).toBe('');
  });
});
