import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeconfigMissing, UnknownContext } from '../../../src/lib/kube/errors.ts';
import { kubeconfigFiles, resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';

function kubeconfigWith(context: string, namespace?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
  const file = join(dir, 'config');
  writeFileSync(
    file,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c-${context}, cluster: {server: "https://10.1.2.3:6443"}}]\nusers: [{name: u-${context}, user: {token: t}}]\ncontexts: [{name: ${context}, context: {cluster: c-${context}, user: u-${context}${namespace ? `, namespace: ${namespace}` : ''}}}]\ncurrent-context: ${context}\n`,
  );
  return file;
}

describe('kubeconfig resolution', () => {
  it('merges every file of KUBECONFIG, the first one choosing the current context', async () => {
    const first = kubeconfigWith('one', 'team-a');
    const second = kubeconfigWith('two');
    const previous = process.env.KUBECONFIG;
    process.env.KUBECONFIG = `${first}:${second}`;
    try {
      const resolved = await resolveKubeconfig({});
      expect(resolved.contextName).toBe('one');
      expect(resolved.namespace).toBe('team-a');
      const other = await resolveKubeconfig({ context: 'two' });
      expect(other.namespace).toBe('default');
      expect(other.server).toBe('https://10.1.2.3:6443');
    } finally {
      process.env.KUBECONFIG = previous;
    }
  });

  it('lets -n override the context namespace', async () => {
    const resolved = await resolveKubeconfig({
      kubeconfig: kubeconfigWith('one', 'team-a'),
      namespace: 'other',
    });
    expect(resolved.namespace).toBe('other');
  });

  it('skips missing KUBECONFIG entries but fails when none exists', () => {
    const present = kubeconfigWith('one');
    expect(kubeconfigFiles(undefined, { KUBECONFIG: `/missing:${present}` })).toEqual([present]);
    expect(() => kubeconfigFiles(undefined, { KUBECONFIG: '/missing' })).toThrow(KubeconfigMissing);
    expect(() => kubeconfigFiles(undefined, { HOME: '/nonexistent-home' })).toThrow(KubeconfigMissing);
  });

  it('names an unknown context', async () => {
    await expect(
      resolveKubeconfig({ kubeconfig: kubeconfigWith('one'), context: 'two' }),
    ).rejects.toBeInstanceOf(UnknownContext);
  });
});
