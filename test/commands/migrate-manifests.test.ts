import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../fixtures/cli.ts';

const noCluster = { KUBECONFIG: '/nonexistent/kubeconfig' };

const server = `# orders
apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601
kind: FlexibleServer
metadata:
  name: orders-db
spec:
  location: westeurope # region
  owner:
    name: shop-rg
`;

// The operator's 2024-08-01 spec takes the key status; its 2025-08-01 spec has no place for it.
const encrypted = `apiVersion: dbforpostgresql.azure.com/v1api20240801
kind: FlexibleServer
metadata:
  name: orders-db
spec:
  location: westeurope
  owner:
    name: shop-rg
  dataEncryption:
    type: SystemManaged
    primaryEncryptionKeyStatus: Valid
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-migrate-f-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('kubectl aso migrate -f (the built plugin, no cluster)', () => {
  it('prints the converted YAML on stdout and what it did on stderr', async () => {
    const run = await runCli(['migrate', '--to', 'v1beta', '-f', file('db.yaml', server)], noCluster);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(server.replace('v1alpha1api20210601', 'v1beta20210601'));
    expect(run.stderr).toContain(
      'FlexibleServer/orders-db: v1alpha1api20210601 -> v1beta20210601 (converted)',
    );
    expect(run.stderr).toContain('1 of 1 ASO objects converted to v1beta in 1 of 1 files');
  });

  it('--write rewrites the file, and -o json prints the report alone', async () => {
    const path = file('db.yaml', server);
    const run = await runCli(['migrate', '--to', 'v1beta', '-f', path, '--write', '-o', 'json'], noCluster);
    expect(run.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(server.replace('v1alpha1api20210601', 'v1beta20210601'));
    expect(JSON.parse(run.stdout)).toMatchObject({
      target: 'v1beta',
      files: [{ file: path, changed: true, writtenTo: path }],
      objects: [{ kind: 'FlexibleServer', how: 'converted', to: 'v1beta20210601' }],
    });
  });

  it('refuses a lossy conversion with exit 13, naming file, line and property; --allow-loss drops it', async () => {
    const path = file('db.yaml', encrypted);
    const refused = await runCli(['migrate', '--to', 'v20250801', '-f', path, '--write'], noCluster);
    expect(refused.code).toBe(13);
    expect(refused.stderr).toContain(
      `error: ${path}:1 (document 1) FlexibleServer/orders-db: v20250801 cannot hold spec.dataEncryption.primaryEncryptionKeyStatus`,
    );
    expect(refused.stderr).toContain('hint: move the value by hand, or rerun with --allow-loss');
    expect(readFileSync(path, 'utf8')).toBe(encrypted);

    const allowed = await runCli(['migrate', '--to', 'v20250801', '-f', path, '--allow-loss'], noCluster);
    expect(allowed.code).toBe(0);
    expect(parse(allowed.stdout).spec.dataEncryption).toEqual({ type: 'SystemManaged' });
    expect(allowed.stderr).toContain('warning:');
    expect(allowed.stderr).toContain('--allow-loss dropped spec.dataEncryption.primaryEncryptionKeyStatus');
  });

  it('--diff exits 23 when the manifests would change and 0 when they would not', async () => {
    const path = file('db.yaml', server);
    const changes = await runCli(['migrate', '--to', 'v1beta', '-f', path, '--diff'], noCluster);
    expect(changes.code).toBe(23);
    expect(changes.stdout).toContain('+apiVersion: dbforpostgresql.azure.com/v1beta20210601');
    const none = await runCli(['migrate', '--to', 'v1alpha1api', '-f', path, '--diff'], noCluster);
    expect(none).toMatchObject({ code: 0, stdout: '' });
  });

  it('refuses a cluster-only flag with -f, and a manifest flag without it, as usage errors', async () => {
    const withF = await runCli(
      ['migrate', '--to', 'v1api', '-f', file('db.yaml', server), '--dry-run'],
      noCluster,
    );
    expect(withF.code).toBe(2);
    expect(withF.stderr).toContain('--dry-run act on the cluster');
    const withoutF = await runCli(['migrate', '--to', 'v1api', '--write'], noCluster);
    expect(withoutF.code).toBe(2);
    expect(withoutF.stderr).toContain('--write only apply to -f manifests');
  });
  it('leaves a kind with no version of the asked prefix as it is, with one line, and converts the rest', async () => {
    const roleAssignment = `apiVersion: authorization.azure.com/v1api20220401
kind: RoleAssignment
metadata:
  name: reader
spec:
  owner:
    armId: /subscriptions/s
  principalId: p
  roleDefinitionReference:
    armId: /subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/r
`;
    const path = file(
      'both.yaml',
      `${roleAssignment}---\n${encrypted.replace('    primaryEncryptionKeyStatus: Valid\n', '')}`,
    );
    const run = await runCli(['migrate', '--to', 'v', '-f', path], noCluster);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      '#1 RoleAssignment/reader: left at v1api20220401 (the kind has no version with the prefix v)',
    );
    const [first, second] = run.stdout.split('---\n');
    expect(first).toBe(roleAssignment);
    expect(parse(second ?? '').apiVersion).toBe('dbforpostgresql.azure.com/v20250801');
  });

  it('names every object that cannot be converted, not only the first, and writes nothing', async () => {
    const lossy = file('a.yaml', encrypted);
    const wrongType = file('b.yaml', server.replace('location: westeurope # region', 'location: 7'));
    const fine = file('c.yaml', server);
    const run = await runCli(
      ['migrate', '--to', 'v20250801', '-f', lossy, '-f', wrongType, '-f', fine, '--write'],
      noCluster,
    );
    expect(run.code).toBe(13);
    expect(run.stderr).toContain('2 objects could not be converted; nothing was written');
    expect(run.stderr).toContain(
      `${lossy}:1 (document 1) FlexibleServer/orders-db: v20250801 cannot hold spec.dataEncryption.primaryEncryptionKeyStatus`,
    );
    expect(run.stderr).toMatch(
      new RegExp(`${wrongType.replaceAll('/', '\\/')}:\\d+: .*spec\\.location: expected a string`),
    );
    expect(readFileSync(lossy, 'utf8')).toBe(encrypted);
    expect(readFileSync(fine, 'utf8')).toBe(server);
  });

  it('with --keep-going writes what converts, leaves each failing object as it was and exits as the first failure', async () => {
    const lossy = file('a.yaml', encrypted);
    const fine = file('c.yaml', server);
    const mixed = file('d.yaml', `${server}---\n${encrypted}`);
    const run = await runCli(
      ['migrate', '--to', 'v20250801', '-f', lossy, '-f', fine, '-f', mixed, '--write', '--keep-going'],
      noCluster,
    );
    expect(run.code).toBe(13);
    expect(run.stderr).toContain(
      '2 objects could not be converted; left as they were; the rest was converted',
    );
    expect(run.stderr).toContain(`${lossy}:1 (document 1) FlexibleServer/orders-db: v20250801 cannot hold`);
    expect(readFileSync(lossy, 'utf8')).toBe(encrypted);
    expect(parse(readFileSync(fine, 'utf8')).apiVersion).toBe('dbforpostgresql.azure.com/v20250801');
    const [converted, untouched] = readFileSync(mixed, 'utf8').split('---\n');
    expect(parse(converted ?? '').apiVersion).toBe('dbforpostgresql.azure.com/v20250801');
    expect(untouched).toBe(encrypted);
  });

  it('with --keep-going and -o json reports the failures beside what converted', async () => {
    const lossy = file('a.yaml', encrypted);
    const fine = file('c.yaml', server);
    const run = await runCli(
      ['migrate', '--to', 'v20250801', '-f', lossy, '-f', fine, '--keep-going', '-o', 'json'],
      noCluster,
    );
    expect(run.code).toBe(13);
    const report = JSON.parse(run.stdout) as { failures: string[]; objects: { how: string }[] };
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toContain('FlexibleServer/orders-db: v20250801 cannot hold');
    expect(report.objects.map((o) => o.how)).toContain('converted');
  });
});
