import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { type MigrateFlags, migrateOptionsOf } from '../../../src/lib/migrate/options.ts';
import { type CrdReport, type MigrationReport, migrationExitCode } from '../../../src/lib/migrate/report.ts';
import { migrationTable } from '../../../src/lib/render/migrate-table.ts';

function crd(outcome: CrdReport['outcome'], extra: Partial<CrdReport> = {}): CrdReport {
  return {
    name: 'flexibleservers.dbforpostgresql.azure.com',
    kind: 'FlexibleServer',
    outcome,
    strategy: 'server',
    reason: undefined,
    target: 'v20250801storage',
    servedVersions: ['v20250801', 'v20250801storage'],
    storageVersion: 'v20250801storage',
    storedVersionsBefore: ['v1alpha1api20210601storage', 'v20250801storage'],
    storedVersionsAfter: ['v20250801storage'],
    objectsToCheck: 3,
    migrated: 2,
    alreadyCurrent: 1,
    deleted: 0,
    failed: [],
    ...extra,
  };
}

const report = (crds: CrdReport[], dryRun = false): MigrationReport => ({
  target: 'v1api',
  dryRun,
  crds,
  warnings: [],
});

describe('the migration report', () => {
  it('exits 0 only when every CRD is finished or clean', () => {
    expect(migrationExitCode(report([crd('finished'), crd('clean')]))).toBe('ok');
    expect(migrationExitCode(report([crd('finished'), crd('skipped')]))).toBe('migrationIncomplete');
    expect(migrationExitCode(report([crd('unavailable')]))).toBe('migrationIncomplete');
    expect(migrationExitCode(report([crd('incomplete')]))).toBe('migrationIncomplete');
  });

  it('exits with the resumable code when interrupted, whatever else happened', () => {
    expect(migrationExitCode(report([crd('incomplete'), crd('interrupted'), crd('notStarted')]))).toBe(
      'interrupted',
    );
  });

  it('succeeds on a dry run that could plan', () => {
    expect(migrationExitCode(report([crd('planned'), crd('skipped')], true))).toBe('ok');
  });

  it('judges a server-side dry run like a run, since its writes were really sent', () => {
    const server = (crds: CrdReport[]): MigrationReport => ({ ...report(crds, true), dryRunMode: 'server' });
    expect(migrationExitCode(server([crd('planned')]))).toBe('ok');
    expect(migrationExitCode(server([crd('planned'), crd('incomplete')]))).toBe('migrationIncomplete');
    const text = migrationTable(server([crd('planned')]), {
      palette: new Chalk({ level: 0 }),
      width: Number.POSITIVE_INFINITY,
      wide: false,
    });
    expect(text.split('\n')[0]).toBe(
      'server-side dry run (writes sent with dryRun=All, nothing stored) to v1api: 1 CRDs',
    );
  });

  it('prints one row per CRD, then the failed objects with their reasons', () => {
    const text = migrationTable(
      report([
        crd('incomplete', {
          reason: '1 objects could not be rewritten',
          failed: [{ namespace: 'prod', name: 'db\u001b[31m', reason: 'the API server answered 422' }],
        }),
      ]),
      { palette: new Chalk({ level: 0 }), width: Number.POSITIVE_INFINITY, wide: false },
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('migration to v1api: 1 CRDs');
    expect(lines[1]).toMatch(
      /^CRD\s+OUTCOME\s+STRATEGY\s+STORAGE\s+STORED BEFORE\s+STORED AFTER\s+OBJECTS\s+MIGRATED/,
    );
    expect(lines[2]).toMatch(
      /^flexibleservers\.dbforpostgresql\.azure\.com\s+incomplete\s+server\s+v20250801storage\s+v1alpha1api20210601storage,v20250801storage\s+v20250801storage\s+3\s+2\s+1\s+0\s+1\s+1 objects could not/,
    );
    expect(lines).toContain('failed objects:');
    expect(lines.at(-1)).toBe(
      '  flexibleservers.dbforpostgresql.azure.com prod/db\\x1b[31m: the API server answered 422',
    );
  });
});

describe('migrate flags', () => {
  const flags: MigrateFlags = {
    to: 'v1api',
    strategy: 'auto',
    'batch-size': 500,
    concurrency: 8,
    'dry-run': false,
    restart: false,
  };

  it('keep state in the default namespace unless told otherwise', () => {
    expect(migrateOptionsOf(flags, 'default').state).toEqual({ namespace: 'default' });
    expect(migrateOptionsOf({ ...flags, 'state-namespace': 'ops' }, 'default').state).toEqual({
      namespace: 'ops',
    });
    expect(migrateOptionsOf({ ...flags, 'state-file': '/tmp/m.json' }, 'default').state).toEqual({
      file: '/tmp/m.json',
    });
  });

  it('read --dry-run as kubectl does: bare or client plans, server sends the writes as dry runs', () => {
    expect(migrateOptionsOf({ ...flags, 'dry-run': true }, 'default')).toMatchObject({ dryRun: true });
    expect(migrateOptionsOf({ ...flags, 'dry-run': 'client' }, 'default')).toMatchObject({ dryRun: true });
    expect(migrateOptionsOf({ ...flags, 'dry-run': 'server' }, 'default')).toMatchObject({
      dryRun: false,
      serverDryRun: true,
    });
    expect(migrateOptionsOf({ ...flags, 'dry-run': 'none' }, 'default').dryRun).toBe(false);
    expect(migrateOptionsOf({ ...flags, 'dry-run': 'none' }, 'default').serverDryRun).toBeUndefined();
  });

  it('refuse a state namespace and a state file together, and an empty namespace', () => {
    expect(() =>
      migrateOptionsOf({ ...flags, 'state-namespace': 'a', 'state-file': 'b' }, 'default'),
    ).toThrow(/cannot be used together/);
    expect(() => migrateOptionsOf({ ...flags, 'state-namespace': '' }, 'default')).toThrow(/empty/);
  });
});
