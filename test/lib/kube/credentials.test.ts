import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../src/lib/kube/connect.ts';
import { ClusterUnreachable, Unauthorized } from '../../../src/lib/kube/errors.ts';
import { listAll } from '../../../src/lib/kube/list.ts';
import { testPlane, uniqueSuffix } from '../../fixtures/cluster.ts';

function kubeconfigFor(user: string, cluster: string): string {
  const plane = testPlane();
  const path = join(plane.stateDir, `kubeconfig-credentials-${uniqueSuffix()}`);
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\nclusters: [{name: local, cluster: ${cluster}}]\nusers: [{name: u, user: ${user}}]\ncontexts: [{name: x, context: {cluster: local, user: u}}]\ncurrent-context: x\n`,
  );
  return path;
}

async function namespaceCount(kubeconfig: string): Promise<number> {
  const client = await connect({ kubeconfig });
  return (await listAll(client, { group: '', version: 'v1', plural: 'namespaces' })).length;
}

describe('credentials and TLS on the real control plane', () => {
  it('authenticates with a bearer token', async () => {
    const plane = testPlane();
    const kubeconfig = kubeconfigFor(
      `{token: ${plane.readonlyToken}}`,
      `{server: "${plane.server}", certificate-authority: ${plane.caCert}}`,
    );
    expect(await namespaceCount(kubeconfig)).toBeGreaterThan(0);
  });

  it('authenticates through an exec credential plugin', async () => {
    const plane = testPlane();
    const plugin = join(plane.stateDir, `exec-plugin-${uniqueSuffix()}.sh`);
    writeFileSync(
      plugin,
      `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${plane.readonlyToken}"}}'\n`,
    );
    chmodSync(plugin, 0o755);
    const kubeconfig = kubeconfigFor(
      `{exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never}}`,
      `{server: "${plane.server}", certificate-authority: ${plane.caCert}}`,
    );
    expect(await namespaceCount(kubeconfig)).toBeGreaterThan(0);
  });

  it('rejects a wrong token as unauthorized', async () => {
    const plane = testPlane();
    const kubeconfig = kubeconfigFor(
      '{token: wrong}',
      `{server: "${plane.server}", certificate-authority: ${plane.caCert}}`,
    );
    await expect(namespaceCount(kubeconfig)).rejects.toBeInstanceOf(Unauthorized);
  });

  it('verifies the server certificate unless the kubeconfig says to skip it', async () => {
    const plane = testPlane();
    const unverifiable = kubeconfigFor(`{token: ${plane.readonlyToken}}`, `{server: "${plane.server}"}`);
    await expect(namespaceCount(unverifiable)).rejects.toBeInstanceOf(ClusterUnreachable);
    const skipping = kubeconfigFor(
      `{token: ${plane.readonlyToken}}`,
      `{server: "${plane.server}", insecure-skip-tls-verify: true}`,
    );
    expect(await namespaceCount(skipping)).toBeGreaterThan(0);
  });
});
