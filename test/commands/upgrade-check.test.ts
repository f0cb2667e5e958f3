import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/lib/exit-codes.ts';
import { runCli } from '../fixtures/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'upgrade-check-cli-'));
const aks = join(dir, 'aks.yaml');
writeFileSync(
  aks,
  'apiVersion: containerservice.azure.com/v1api20240402preview\nkind: ManagedCluster\nmetadata:\n  name: aks\n  namespace: app\nspec:\n  location: westeurope\n',
);
const fine = join(dir, 'rg.yaml');
writeFileSync(
  fine,
  'apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata:\n  name: rg\nspec:\n  location: westeurope\n',
);

describe('kubectl aso upgrade-check, on manifests (no cluster)', () => {
  it('lists what breaks with its file and line and exits with the blocking code', async () => {
    const run = await runCli(['upgrade-check', '--from', 'v2.18.0', '--to', 'v2.20.0', '-f', aks]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(exitCodes.upgradeBlocked.code);
    expect(run.stdout).toContain('v2.18.0 -> v2.20.0 (spans v2.19');
    expect(run.stdout).toContain(`${aks}:1`);
    expect(run.stdout).toContain('v2.20.0 no longer serves v1api20240402preview');
    expect(run.stdout).toContain('Not ready: 1 blocking findings');
  });

  it('returns the same typed result as JSON, and Markdown for a pull request', async () => {
    const json = await runCli(['upgrade-check', '--from', '2.18', '--to', '2.20', '-f', aks, '-o', 'json']);
    const report = JSON.parse(json.stdout) as {
      from: string;
      to: string;
      blocking: number;
      manifests: { findings: unknown[] };
    };
    expect([report.from, report.to, report.blocking, report.manifests.findings.length]).toEqual([
      'v2.18.0',
      'v2.20.0',
      1,
      1,
    ]);
    const markdown = await runCli([
      'upgrade-check',
      '--from',
      'v2.18.0',
      '--to',
      'v2.20.0',
      '-f',
      aks,
      '-o',
      'markdown',
    ]);
    expect(markdown.stdout).toMatch(/^### Upgrade check: ASO v2.18.0 -> v2.20.0/);
    expect(markdown.stdout).toContain('| Where | Object | What breaks | Fix | Values |');
    expect(markdown.stdout).toContain('**Not ready: 1 blocking findings, each with its fix.**');
  });

  it('exits 0 when nothing the manifests use changes', async () => {
    const run = await runCli(['upgrade-check', '--from', 'v2.18.0', '--to', 'v2.20.0', '-f', fine]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Manifests: 1 ASO objects, 0 findings');
    expect(run.stdout).toContain('Ready: nothing checked breaks in this upgrade.');
  });

  it('names an unknown release with the known ones, as a usage error without a stack trace', async () => {
    const run = await runCli(['upgrade-check', '--from', 'v2.19.0', '--to', 'v2.20.0']);
    expect(run.code).toBe(exitCodes.usage.code);
    expect(run.stderr).toContain('the installed release v2.19.0 is not one kubectl-aso knows');
    expect(run.stderr).toContain('known releases: v2.13.0, v2.18.0, v2.20.0');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('names a manifest it cannot read', async () => {
    const run = await runCli([
      'upgrade-check',
      '--from',
      'v2.18.0',
      '--to',
      'v2.20.0',
      '-f',
      join(dir, 'missing.yaml'),
    ]);
    expect(run.code).toBe(exitCodes.invalidInput.code);
    expect(run.stderr).toContain('missing.yaml');
  });
});
