import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/lib/kube/client.ts';
import { resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';
import { resolveFast } from '../../../src/lib/kube/kubeconfig-fast.ts';
import { testPlane } from '../../fixtures/cluster.ts';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kubeconfig-fast-')), 'config');
  writeFileSync(path, text);
  return path;
}

describe('the fast kubeconfig path', () => {
  it('resolves the plane kubeconfig (client certificates) without the client library, and connects', async () => {
    const fast = await resolveFast([testPlane().kubeconfig], 'readonly');
    expect(fast?.contextName).toBe('readonly');
    expect(fast?.server).toBe(testPlane().server);
    const client = new KubeClient(
      await resolveKubeconfig({ kubeconfig: testPlane().kubeconfig, context: 'readonly' }),
    );
    const version = await client.request<{ gitVersion: string }>({
      path: '/version',
      subject: { verb: 'get', resource: 'version' },
    });
    expect(version.gitVersion).toMatch(/^v1\./);
  });

  it('reads a token from a file relative to the kubeconfig', async () => {
    const path = file(
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {tokenFile: token}}]\ncontexts: [{name: x, context: {cluster: c, user: u, namespace: team}}]\ncurrent-context: x\n',
    );
    writeFileSync(join(path, '..', 'token'), 'secret-token\n');
    const fast = await resolveFast([path], undefined);
    const options: RequestOptions = {};
    await fast?.config.applyToHTTPSOptions(options);
    expect((options.headers as Record<string, string> | undefined)?.authorization).toBe(
      'Bearer secret-token',
    );
    expect(fast?.contextNamespace).toBe('team');
  });

  it('leaves exec plugins, unknown contexts and odd files to the client library', async () => {
    const exec = file(
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://10.0.0.1:6443"}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: get-token}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    expect(await resolveFast([exec], undefined)).toBeUndefined();
    expect(await resolveFast([testPlane().kubeconfig], 'nope')).toBeUndefined();
    expect(await resolveFast([file(': not yaml : [')], undefined)).toBeUndefined();
    expect(readFileSync(exec, 'utf8')).toContain('exec');
  });
});
