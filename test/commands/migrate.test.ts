import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, testPlane } from '../fixtures/cluster.ts';
import {
  alphaStorage,
  crdStoredAtAlpha,
  hubStorage,
  type RenamingWebhook,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
} from '../lib/migrate/support.ts';

let webhook: RenamingWebhook;
let admin: KubeClient;

beforeAll(async () => {
  admin = await adminClient();
  webhook = await startRenamingWebhook(testPlane());
});
afterAll(() => webhook.close());

describe('kubectl aso migrate (the command, on the real control plane)', () => {
  it('migrates with --state-file and prints a summary table on stdout and a line per batch on stderr', async () => {
    const { crd } = await crdStoredAtAlpha(admin, webhook, 6);
    const stateFile = join(mkdtempSync(join(tmpdir(), 'migrate-cli-')), 'state.json');
    const plane = testPlane();
    const run = await runCli([
      'migrate',
      '--to',
      'v20250801',
      '--kind',
      crd.name,
      '--batch-size',
      '4',
      '--state-file',
      stateFile,
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      'admin',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('migration to v20250801: 1 CRDs');
    expect(lines[1]).toMatch(/^CRD\s+OUTCOME\s+STRATEGY\s+STORAGE\s+STORED BEFORE\s+STORED AFTER/);
    expect(lines[2]).toMatch(
      new RegExp(
        `^${crd.name.replaceAll('.', '\\.')}\\s+finished\\s+server\\s+${hubStorage}\\s+${alphaStorage},${hubStorage}\\s+${hubStorage}\\s+7\\s+6\\s+1\\s+0\\s+0`,
      ),
    );
    expect(run.stderr.split('\n').filter((line) => line.includes(': batch '))).toHaveLength(2);
    expect(run.stderr).toContain(`${crd.name}: storedVersions is now [${hubStorage}]`);
    // The file held the progress while the run went on, and holds nothing for a finished CRD.
    expect(existsSync(stateFile)).toBe(true);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({ format: 1, crds: {} });
    expect(
      (await storedObjects(plane, crd)).every((object) => object.apiVersion === `${crd.group}/${hubStorage}`),
    ).toBe(true);
  });

  it('shows a progress bar instead of batch lines when stderr is a terminal', async () => {
    const { crd } = await crdStoredAtAlpha(admin, webhook, 6);
    const plane = testPlane();
    const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;
    const args = [
      'migrate',
      '--to',
      'v',
      '--kind',
      crd.name,
      '--batch-size',
      '4',
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      'admin',
    ];
    // util-linux `script` gives the plugin a pseudo-terminal; what the terminal received comes back on stdout.
    const run = await runCli(
      ['-qec', [process.execPath, bin, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'],
      {},
      '/usr/bin/script',
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toContain(': batch ');
    expect(run.stdout).toMatch(new RegExp(`\\r${crd.name.replaceAll('.', '\\.')} \\[#{24}\\] 7/7 100% `));
    expect(run.stdout).toContain(`${crd.name}: storedVersions is now [${hubStorage}]`);
  });

  it('reads a bare --dry-run as client (the plan) and --dry-run=server as writes sent with dryRun=All', async () => {
    const { crd } = await crdStoredAtAlpha(admin, webhook, 2);
    const plane = testPlane();
    const base = [
      'migrate',
      '--to',
      'v',
      '--kind',
      crd.name,
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      'admin',
      '-o',
      'json',
    ];
    const [bare, server] = [
      await runCli([...base, '--dry-run']),
      await runCli([...base, '--dry-run=server']),
    ];
    expect(bare.code, bare.stderr).toBe(0);
    expect(JSON.parse(bare.stdout)).toMatchObject({
      dryRun: true,
      crds: [{ outcome: 'planned', migrated: 0 }],
    });
    expect(JSON.parse(bare.stdout).dryRunMode).toBeUndefined();
    expect(server.code, server.stderr).toBe(0);
    expect(JSON.parse(server.stdout)).toMatchObject({
      dryRun: true,
      dryRunMode: 'server',
      crds: [{ outcome: 'planned', migrated: 3, storedVersionsAfter: [alphaStorage, hubStorage] }],
    });
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
  });

  it('refuses the readonly context with exit 6, naming what it may not do, and writes nothing', async () => {
    const { crd } = await crdStoredAtAlpha(admin, webhook, 1);
    const plane = testPlane();
    const run = await runCli([
      'migrate',
      '--to',
      'v',
      '--kind',
      crd.name,
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      'readonly',
    ]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(
      `error: forbidden: context readonly may not update ${crd.name} in every namespace`,
    );
    expect(run.stderr).toContain(`patch customresourcedefinitions.apiextensions.k8s.io/status ${crd.name}`);
    expect(run.stderr).toContain('nothing was written');
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(run.stdout).toBe('');
    expect(await storedVersions(admin, crd)).toEqual([alphaStorage, hubStorage]);
  });
});
