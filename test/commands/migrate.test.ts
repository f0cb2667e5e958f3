import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, freshNamespace, testPlane } from '../fixtures/cluster.ts';
import {
  alphaServer,
  alphaStorage,
  crdStoredAtAlpha,
  createObject,
  createTestCrd,
  hubStorage,
  moveStorage,
  type RenamingWebhook,
  startRenamingWebhook,
  storedObjects,
  storedVersions,
  waitForStorageInEffect,
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

  it('writes back map keys that JSON escapes exactly as stored (V8 reads some as a backslash)', async () => {
    // One object's tag is a backslash and the others' one character that JSON escapes: a fresh Node's
    // JSON.parse reads the later ones as a backslash (nodejs/node#63785), and a rewrite sent as read would
    // change them in the cluster.
    const plane = testPlane();
    const crd = await createTestCrd(admin, webhook, alphaStorage);
    const namespace = await freshNamespace('migrate-keys');
    const keys = ['\\', '>', '"', '\n', '&'];
    for (const [index, key] of keys.entries()) {
      const server = alphaServer(crd.group, namespace, `keys-${index}`, index);
      await createObject(admin, crd, {
        ...server,
        spec: { ...(server.spec as object), tags: { [key]: `value-${index}` } },
      });
    }
    await moveStorage(admin, crd.name, hubStorage);
    await waitForStorageInEffect(admin, plane, crd, namespace, hubStorage);
    const ours = (entries: Awaited<ReturnType<typeof storedObjects>>) =>
      entries.filter((entry) => entry.key.includes(`/${namespace}/keys-`));
    // Every key is in the objects' managedFields too (`f:>`), where the API server keeps what a write sends.
    const fieldsBefore = ours(await storedObjects(plane, crd)).map(
      (entry) => (entry.value.metadata as { managedFields?: unknown }).managedFields,
    );
    expect(JSON.stringify(fieldsBefore)).toContain('"f:>"');
    const backups = mkdtempSync(join(tmpdir(), 'migrate-keys-'));
    const run = await runCli([
      'migrate',
      '--to',
      'v20250801',
      '--kind',
      crd.name,
      '--backup-dir',
      backups,
      '--kubeconfig',
      plane.kubeconfig,
      '--context',
      'admin',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const stored = await storedObjects(plane, crd);
    const tagsOf = (name: string) => {
      const object = stored.find((entry) => entry.key.endsWith(`/${namespace}/${name}`));
      // Read from etcd's raw text with the strict parser, so that the check cannot misread them too.
      return (object?.value.spec as { tags?: unknown } | undefined)?.tags;
    };
    for (const [index, key] of keys.entries()) {
      expect(tagsOf(`keys-${index}`), `keys-${index}`).toEqual({ [key]: `value-${index}` });
    }
    expect(ours(stored).map((entry) => entry.apiVersion)).toEqual(
      keys.map(() => `${crd.group}/${hubStorage}`),
    );
    const fieldsV1 = (fields: unknown) =>
      (fields as Array<{ fieldsV1?: unknown }>).map((field) => field.fieldsV1);
    expect(
      ours(stored).map((entry) =>
        fieldsV1((entry.value.metadata as { managedFields?: unknown }).managedFields),
      ),
    ).toEqual(fieldsBefore.map(fieldsV1));
    // The backups hold the objects as they were, keys included.
    for (const [index, key] of keys.entries()) {
      const backup = parse(
        readFileSync(join(backups, crd.name, namespace, `keys-${index}.yaml`), 'utf8'),
      ) as KubeObject;
      expect((backup.spec as { tags?: unknown }).tags).toEqual({ [key]: `value-${index}` });
      expect(fieldsV1((backup.metadata as { managedFields?: unknown }).managedFields)).toEqual(
        fieldsV1(fieldsBefore[index]),
      );
    }
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
