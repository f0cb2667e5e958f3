import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freshNamespace, testPlane } from '../fixtures/cluster.ts';
import { createObject, testKind } from '../lib/status/fixtures.ts';
import { builtPackage, ensureBuiltPackage, pathWithoutNode } from './built-package.ts';
import { installAsKrewDoes, type KrewManifest, krewProblems } from './krew-layout.ts';

const pkg = builtPackage('test/package/krew.test.ts (the krew manifest and layout)');
const script = new URL('../../scripts/krew-manifest.ts', import.meta.url).pathname;

describe.runIf(pkg.present)('the krew manifest, and the archive installed as krew lays it out', () => {
  let scratch: string;
  let manifest: KrewManifest;

  beforeAll(() => {
    ensureBuiltPackage(pkg);
    scratch = mkdtempSync(join(tmpdir(), 'kubectl-aso-krew-'));
    execFileSync(process.execPath, [script, join(scratch, 'aso.yaml')], {
      env: { ...process.env, KUBECTL_ASO_RELEASE_URL: '' },
    });
    manifest = parse(readFileSync(join(scratch, 'aso.yaml'), 'utf8')) as KrewManifest;
  }, 600_000);
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('carries every field krew requires, for linux/amd64', () => {
    expect(krewProblems('aso', manifest)).toEqual([]);
    expect(manifest.spec?.version).toBe(`v${pkg.version}`);
    expect(manifest.spec?.description?.length).toBeGreaterThan(100);
    expect(manifest.spec?.caveats).toContain('kubectl_complete-aso');
    expect(manifest.spec?.homepage).toMatch(/^https:\/\//);
    const [platform] = manifest.spec?.platforms ?? [];
    expect(platform?.selector?.matchLabels).toEqual({ os: 'linux', arch: 'amd64' });
    expect(platform?.bin).toBe('kubectl-aso');
    expect(platform?.files?.map((rule) => rule.from).sort()).toEqual([
      'LICENSE',
      'kubectl-aso',
      'kubectl_complete-aso',
    ]);
    expect(platform?.uri).toMatch(
      new RegExp(`/kubectl-aso_${pkg.version.replaceAll('.', '\\.')}_linux_amd64\\.tar\\.gz$`),
    );
  });

  it("carries the archive's sha256", () => {
    const sha256 = createHash('sha256').update(readFileSync(pkg.archive)).digest('hex');
    expect(manifest.spec?.platforms?.[0]?.sha256).toBe(sha256);
  });

  it('names the published archive under KUBECTL_ASO_RELEASE_URL when it is set', () => {
    execFileSync(process.execPath, [script, join(scratch, 'released.yaml')], {
      env: { ...process.env, KUBECTL_ASO_RELEASE_URL: 'https://example.test/releases/v1/' },
    });
    const released = parse(readFileSync(join(scratch, 'released.yaml'), 'utf8')) as KrewManifest;
    expect(released.spec?.platforms?.[0]?.uri).toBe(
      `https://example.test/releases/v1/kubectl-aso_${pkg.version}_linux_amd64.tar.gz`,
    );
  });

  it('runs `kubectl aso version --client` and `kubectl aso status -A` through kubectl with no Node on PATH', async () => {
    const krewRoot = mkdtempSync(join(scratch, 'krew-root-'));
    const link = installAsKrewDoes(krewRoot, manifest, pkg.archive);
    expect(link).toBe(join(krewRoot, 'bin', 'kubectl-aso'));
    const store = join(krewRoot, 'store', 'aso', `v${pkg.version}`);
    expect(readFileSync(join(store, 'LICENSE'), 'utf8')).toContain('MIT License');

    const kubectlDir = pathWithoutNode({ kubectl: '/usr/bin/kubectl' });
    const path = `${kubectlDir}:${join(krewRoot, 'bin')}`;
    const nodeOnPath = spawnSync('/bin/sh', ['-c', 'command -v node'], {
      env: { PATH: path },
      encoding: 'utf8',
    });
    expect(nodeOnPath.stdout).toBe('');

    const kind = await testKind('KrewVault');
    const namespace = await freshNamespace('krew');
    await createObject(kind, namespace, {
      name: 'krew-vault',
      ready: { status: 'True', reason: 'Succeeded' },
    });
    const env = { HOME: scratch, PATH: path, KUBECONFIG: testPlane().kubeconfig, NO_COLOR: '1' };
    const version = spawnSync('kubectl', ['aso', 'version', '--client'], { env, encoding: 'utf8' });
    expect(version.stderr).toBe('');
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(
      new RegExp(`^Client Version: kubectl-aso ${pkg.version.replaceAll('.', '\\.')} `),
    );
    const status = spawnSync('kubectl', ['aso', 'status', '-A'], { env, encoding: 'utf8' });
    expect(status.stderr).toBe('');
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`${namespace}\\s+KrewVault(\\.\\S+)?\\s+krew-vault\\s+Ready`));

    // The caveats' one link makes completion work through kubectl.
    symlinkSync(join(store, 'kubectl_complete-aso'), join(krewRoot, 'bin', 'kubectl_complete-aso'));
    const complete = spawnSync('kubectl', ['__complete', 'aso', 'st'], { env, encoding: 'utf8' });
    expect(complete.stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(['status', ':4', '']);
  });
});
