import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crdAssetIndex } from '../../src/lib/crds/generated-crds.ts';
import type { StatusReport } from '../../src/lib/status/report.ts';
import { runCli } from '../fixtures/cli.ts';
import { freshNamespace, testPlane } from '../fixtures/cluster.ts';
import { generatedCrdStore } from '../fixtures/generated-crd-files.ts';
import { createObject, testKind } from '../lib/status/fixtures.ts';
import { builtPackage, ensureBuiltPackage, pathWithoutNode } from './built-package.ts';

const pkg = builtPackage('test/package/package.test.ts (the single executable)');

/** Runs the executable with nothing of this machine's environment but HOME and the given PATH. */
function runNodeless(args: string[], path: string, env: Record<string, string> = {}) {
  const run = spawnSync(pkg.executable, args, {
    env: { HOME: process.env.HOME ?? '/', PATH: path, NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.runIf(pkg.present)('the single executable, with no Node on PATH', () => {
  beforeAll(() => ensureBuiltPackage(pkg), 600_000);

  it('is one file that runs where `node` is not found', () => {
    const path = pathWithoutNode({ kubectl: '/usr/bin/kubectl' });
    const which = spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: path }, encoding: 'utf8' });
    expect(which.stdout).toBe('');
    expect(which.status).not.toBe(0);
    expect(statSync(pkg.executable).mode & 0o111).not.toBe(0);
    const run = runNodeless(['version', '--client'], path);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^Client Version: kubectl-aso ${pkg.version.replaceAll('.', '\\.')} \\(node v\\d+`),
    );
  });

  it('prints the root help with every command and the exit codes', () => {
    const run = runNodeless(['--help'], pathWithoutNode({}));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('$ kubectl aso [COMMAND]');
    for (const id of [
      'status',
      'adopt-check',
      'migrate',
      'health-rules',
      'tree',
      'delete-check',
      'explain',
      'version',
    ])
      expect(run.stdout).toMatch(new RegExp(`\\n  ${id}\\s`));
    expect(run.stdout).toContain('EXIT CODES');
  });

  it("renders a command's help through oclif and the plugin's help class when the page is not pre-rendered", () => {
    // `help status -h` is no pre-rendered page, so oclif loads the help class the bundle registered.
    const run = runNodeless(['status', '--help', '--all-namespaces'], pathWithoutNode({}));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--fail-on');
    expect(run.stdout).toMatch(/EXIT CODES[\s\S]*20\s+the command is not implemented yet/);
  });

  it('answers an unknown command and a flag missing its value as usage errors (exit 2)', () => {
    const unknown = runNodeless(['statsu'], pathWithoutNode({}));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "kubectl aso status"?');
    const missing = runNodeless(['status', '-n'], pathWithoutNode({}));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'error: Flag --namespace expects a value\nhint: see kubectl aso status --help\n',
    );
  });

  it('carries every generated CRD archive as an asset, compressed, that decompresses to the generated YAML', () => {
    // What src/lib/crds/generated-crds.ts reads in the executable (node:sea assets: an index of the groups,
    // then one brotli archive per group), read through the same API by a script Node loads before the
    // executable's own.
    const dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-sea-crds-'));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        `const sea = require('node:sea');
const { brotliDecompressSync } = require('node:zlib');
const groups = sea.getAsset(${JSON.stringify(crdAssetIndex)}, 'utf8').split('\\n').filter(Boolean);
const out = groups.map((group) => {
  const yaml = brotliDecompressSync(Buffer.from(sea.getAsset('crds/' + group + '.yaml.br'))).toString('utf8');
  return { group, firstLine: yaml.split('\\n', 1)[0], yaml };
});
require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'carried.json'))}, JSON.stringify(out));
process.exit(0);
`,
      );
      const run = runNodeless(['version', '--client'], pathWithoutNode({}), {
        NODE_OPTIONS: `--require ${probe}`,
      });
      expect(run.stderr).toBe('');
      const carried = JSON.parse(readFileSync(join(dir, 'carried.json'), 'utf8')) as Array<{
        group: string;
        firstLine: string;
        yaml: string;
      }>;
      const store = generatedCrdStore();
      expect(carried.map((c) => c.group)).toEqual(store.groups());
      for (const { group, firstLine, yaml } of carried) {
        expect(firstLine, group).toBe('# Code generated by kubectl-aso (npm run generate). DO NOT EDIT.');
        expect(yaml, group).toBe(
          `${firstLine}\n${store
            .ofGroup(group)
            .map((crd) => crd.yaml)
            .join('')}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs migrate, refusing a --to it cannot read as a usage error', () => {
    const run = runNodeless(['migrate', '--to', 'v9nonsense'], pathWithoutNode({}));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--to');
    expect(run.stderr).not.toContain('this is a bug');
  });

  it("answers completion through the real kubectl with the archive's kubectl_complete-aso", async () => {
    const namespace = await freshNamespace('sea-complete');
    const path = pathWithoutNode({
      kubectl: '/usr/bin/kubectl',
      'kubectl-aso': pkg.executable,
      'kubectl_complete-aso': pkg.completion,
    });
    const complete = (words: string[]) => {
      const run = spawnSync('kubectl', ['__complete', 'aso', ...words], {
        env: { HOME: process.env.HOME ?? '/', PATH: path, KUBECONFIG: testPlane().kubeconfig },
        encoding: 'utf8',
      });
      return run.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\t')[0]);
    };
    expect(complete(['st'])).toEqual(['status', ':4']);
    expect(complete(['status', '-n', namespace])).toEqual([namespace, ':4']);
  });

  it('loads the Azure libraries that adopt-check imports lazily', () => {
    const home = mkdtempSync(join(tmpdir(), 'kubectl-aso-sea-home-'));
    try {
      const manifest = join(home, 'rg.yaml');
      writeFileSync(
        manifest,
        'apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata: {name: rg, namespace: default}\nspec: {location: westus}\n',
      );
      // No cluster and no Azure login: the local credential chain is built from @azure/identity and fails,
      // which the report says per resource (a module missing from the bundle would be a crash instead).
      const run = runNodeless(
        [
          'adopt-check',
          '-f',
          manifest,
          '--credential',
          'local',
          '--subscription',
          '00000000-0000-0000-0000-000000000000',
          '--kubeconfig',
          '/nonexistent',
          '-o',
          'json',
        ],
        pathWithoutNode({}),
        { HOME: home, AZURE_CLIENT_ID: '', IDENTITY_ENDPOINT: '', MSI_ENDPOINT: '' },
      );
      expect(run.code).toBe(10);
      const report = JSON.parse(run.stdout) as { items: Array<{ outcome: string; reason: string }> };
      expect(report.items).toHaveLength(1);
      expect(report.items[0]?.outcome).toBe('unknown');
      expect(report.items[0]?.reason).toMatch(/credential|authentication/i);
      expect(run.stderr).not.toMatch(/Cannot find module|bug/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('lays the what-if out from the generated ARM payload, as the npm install does, against the ARM emulator', async () => {
    const { startArmEmulator } = await import('../fixtures/arm-emulator/index.ts');
    const sub = '33333333-3333-3333-3333-333333333333';
    const rgId = `/subscriptions/${sub}/resourceGroups/rg-sea`;
    const emulator = await startArmEmulator({
      seed: [{ id: rgId, apiVersion: '2020-06-01', body: { location: 'westus', tags: { team: 'a' } } }],
    });
    const home = mkdtempSync(join(tmpdir(), 'kubectl-aso-sea-home-'));
    try {
      const manifest = join(home, 'rg.yaml');
      writeFileSync(
        manifest,
        'apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata: {name: rg-sea, namespace: default}\nspec: {location: westus, tags: {team: b}}\n',
      );
      // The emulator answers in this process, so the executable runs asynchronously here; PATH has no Node.
      const { code, stdout, stderr } = await runCli(
        [
          'adopt-check',
          '-f',
          manifest,
          '--credential',
          'local',
          '--subscription',
          sub,
          '--kubeconfig',
          '/nonexistent',
          '-o',
          'json',
        ],
        { HOME: home, PATH: pathWithoutNode({}), ...emulator.env },
        pkg.executable,
      );
      expect(stderr).not.toMatch(/Invalid URL|Cannot find module|bug/);
      const report = JSON.parse(stdout) as { items: Array<Record<string, unknown>> };
      expect(report.items[0]).toMatchObject({
        outcome: 'adopt-manage',
        armId: rgId,
        changes: [{ path: 'tags.team', from: 'a', to: 'b' }],
      });
      expect(code).toBe(0);
    } finally {
      await emulator.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('authenticates through an exec credential plugin (the lazily loaded Kubernetes client)', () => {
    const plane = testPlane();
    const dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-sea-exec-'));
    try {
      const plugin = join(dir, 'get-token');
      writeFileSync(
        plugin,
        `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${plane.readonlyToken}"}}'\n`,
      );
      chmodSync(plugin, 0o755);
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        `apiVersion: v1\nkind: Config\nclusters: [{name: local, cluster: {server: "${plane.server}", certificate-authority: ${plane.caCert}}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never}}}]\ncontexts: [{name: x, context: {cluster: local, user: u}}]\ncurrent-context: x\n`,
      );
      const run = runNodeless(['version', '-o', 'json'], pathWithoutNode({}), { KUBECONFIG: kubeconfig });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).server?.gitVersion).toMatch(/^v1\./);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs status -A against the real control plane', async () => {
    const kind = await testKind('SeaVault');
    const namespace = await freshNamespace('sea');
    await createObject(kind, namespace, {
      name: 'vault-ready',
      ready: { status: 'True', reason: 'Succeeded' },
    });
    const path = pathWithoutNode({});
    const env = { KUBECONFIG: testPlane().kubeconfig };
    const table = runNodeless(['status', '-A'], path, env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${namespace}\\s+SeaVault(\\.\\S+)?\\s+vault-ready\\s+Ready`));
    const json = runNodeless(['status', '-n', namespace, '-o', 'json'], path, env);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as StatusReport;
    expect(report.items.map((item) => [item.namespace, item.kind, item.name, item.state])).toEqual([
      [namespace, 'SeaVault', 'vault-ready', 'Ready'],
    ]);
  });
});
