import { mkdtempSync, writeFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/lib/kube/client.ts';
import { KubeconfigInvalid, Unauthorized } from '../../../src/lib/kube/errors.ts';
import { resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';
import { fastCredentials } from '../../../src/lib/kube/kubeconfig-fast.ts';
import { mergeKubeconfigFiles } from '../../../src/lib/kube/kubeconfig-merge.ts';
import { listAll } from '../../../src/lib/kube/list.ts';
import { testPlane } from '../../fixtures/cluster.ts';

function file(text: string, name = 'config'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kubeconfig-')), name);
  writeFileSync(path, text);
  return path;
}

async function canListNamespaces(kubeconfig: string, context?: string): Promise<boolean> {
  const client = new KubeClient(await resolveKubeconfig({ context, ...(kubeconfig ? { kubeconfig } : {}) }));
  return (await listAll(client, { group: '', version: 'v1', plural: 'namespaces' })).length > 0;
}

describe('merging kubeconfig files as kubectl does', () => {
  it('lets the first file win a name both files use, and takes current-context from the first file that sets it', async () => {
    const first = file(
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://first:6443"}}]\n',
    );
    const second = file(
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://second:6443"}}]\nusers: [{name: u, user: {client-certificate: cert.pem}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    const merged = await mergeKubeconfigFiles([first, second]);
    expect(merged.clusters.get('c')?.server).toBe('https://first:6443');
    expect(merged.currentContext).toBe('x');
    expect(merged.users.get('u')?.['client-certificate']).toBe(join(second, '..', 'cert.pem'));
  });

  it('names the file of an entry without a name', async () => {
    const bad = file('apiVersion: v1\nkind: Config\nclusters: [{cluster: {server: "https://x"}}]\n');
    await expect(mergeKubeconfigFiles([bad])).rejects.toThrow(
      `kubeconfig ${bad} is not usable: a cluster entry has no name`,
    );
  });

  it('refuses a certificate authority together with insecure-skip-tls-verify, as kubectl does', async () => {
    const both = file(
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://x:6443", certificate-authority-data: AAAA, insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    await expect(resolveKubeconfig({ kubeconfig: both })).rejects.toBeInstanceOf(KubeconfigInvalid);
  });
});

describe('the fast credentials path', () => {
  it('connects with the plane client certificates without the client library', async () => {
    expect(await canListNamespaces(testPlane().kubeconfig, 'readonly')).toBe(true);
  });

  it('reads a token file on every request, so a rotated token is used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'token-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'first\n');
    const credentials = fastCredentials(
      { server: 'https://x', 'insecure-skip-tls-verify': true },
      { tokenFile },
    );
    const first: RequestOptions = {};
    await credentials?.applyToHTTPSOptions(first);
    writeFileSync(tokenFile, 'second\n');
    const second: RequestOptions = {};
    await credentials?.applyToHTTPSOptions(second);
    expect((first.headers as Record<string, string>).authorization).toBe('Bearer first');
    expect((second.headers as Record<string, string>).authorization).toBe('Bearer second');
  });

  it('declines users and clusters it does not fully understand', () => {
    expect(fastCredentials({ server: 'https://x' }, { exec: { command: 'get-token' } })).toBeUndefined();
    expect(fastCredentials({ server: 'https://x', 'tls-server-name': 'a' }, { token: 't' })).toBeUndefined();
    expect(fastCredentials({ server: 'https://x' }, { token: 't', as: 'someone' })).toBeUndefined();
    expect(fastCredentials({ server: 'https://x' }, {})).toBeUndefined();
  });
});

describe('the client library path, on the real control plane', () => {
  it('merges files that share names and reads kubectl-style tokenFile', async () => {
    const plane = testPlane();
    const dir = mkdtempSync(join(tmpdir(), 'slow-'));
    writeFileSync(join(dir, 'token'), `${plane.readonlyToken}\n`);
    // tls-server-name sends this cluster through the client library; the relative tokenFile must still work.
    const first = join(dir, 'first');
    writeFileSync(
      first,
      `apiVersion: v1\nkind: Config\nclusters: [{name: local, cluster: {server: "${plane.server}", certificate-authority: ${plane.caCert}, tls-server-name: localhost}}]\nusers: [{name: reader, user: {tokenFile: token}}]\ncontexts: [{name: slow, context: {cluster: local, user: reader}}]\n`,
    );
    const second = join(dir, 'second');
    writeFileSync(
      second,
      'apiVersion: v1\nkind: Config\nclusters: [{name: local, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: reader, user: {token: wrong}}]\ncontexts: [{name: slow, context: {cluster: local, user: reader}}]\ncurrent-context: slow\n',
    );
    const previous = process.env.KUBECONFIG;
    process.env.KUBECONFIG = `${first}:${second}`;
    try {
      expect(await canListNamespaces('')).toBe(true);
    } finally {
      process.env.KUBECONFIG = previous;
    }
  });

  it('reads the token file again on every request, so a rotated token is used on this path too', async () => {
    const plane = testPlane();
    const dir = mkdtempSync(join(tmpdir(), 'rotated-'));
    const token = join(dir, 'token');
    writeFileSync(token, `${plane.readonlyToken}\n`);
    const config = join(dir, 'config');
    writeFileSync(
      config,
      `apiVersion: v1\nkind: Config\nclusters: [{name: local, cluster: {server: "${plane.server}", certificate-authority: ${plane.caCert}, tls-server-name: localhost}}]\nusers: [{name: reader, user: {tokenFile: token}}]\ncontexts: [{name: slow, context: {cluster: local, user: reader}}]\ncurrent-context: slow\n`,
    );
    const client = new KubeClient(await resolveKubeconfig({ kubeconfig: config }));
    const namespaces = { group: '', version: 'v1', plural: 'namespaces' };
    expect((await listAll(client, namespaces)).length).toBeGreaterThan(0);
    writeFileSync(token, 'rotated-out\n');
    await expect(listAll(client, namespaces)).rejects.toBeInstanceOf(Unauthorized);
  });
});
