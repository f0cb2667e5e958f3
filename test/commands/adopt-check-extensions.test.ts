import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import { type ArmEmulator, startArmEmulator } from '../fixtures/arm-emulator/index.ts';
import { runCli } from '../fixtures/cli.ts';

// The operator's extensions that change the body before the PUT, by asking ARM: a RoleAssignment's
// well-known role name becomes the built-in role's ID (from ARM's role definitions, listed once); a key
// vault's create mode depends on a soft-deleted vault of its name. adopt-check does the same through the
// real @azure/arm-resources client in the built plugin, against the emulator. No cluster.

const sub = '44444444-4444-4444-4444-444444444444';
const rgId = `/subscriptions/${sub}/resourceGroups/rg-roles`;
const roleId = (guid: string) =>
  `/subscriptions/${sub}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
const contributor = 'b24988ac-6180-42a0-ab88-20f7382dd24c';
const reader = 'acdd72a7-3385-48ef-bd42-f606fba81ae7';
const assignmentId = (guid: string) => `${rgId}/providers/Microsoft.Authorization/roleAssignments/${guid}`;
const same = '00000000-0000-0000-0000-0000000000a1';
const other = '00000000-0000-0000-0000-0000000000a2';
const unknownRole = '00000000-0000-0000-0000-0000000000a3';
const customRole = '00000000-0000-0000-0000-0000000000a4';
const deletedVault = (name: string, group = rgId) => ({
  id: `/subscriptions/${sub}/providers/Microsoft.KeyVault/locations/westus/deletedVaults/${name}`,
  apiVersion: '2024-11-01',
  body: {
    properties: { vaultId: `${group}/providers/Microsoft.KeyVault/vaults/${name}`, location: 'westus' },
  },
});

let emulator: ArmEmulator;
let report: AdoptReport | undefined;
let code: number | undefined;

beforeAll(async () => {
  const held = (role: string) => ({
    apiVersion: '2022-04-01',
    body: { properties: { principalId: 'p-1', roleDefinitionId: roleId(role) } },
  });
  emulator = await startArmEmulator({
    // Two role definitions a page: the listing is followed through its nextLinks.
    listPageSize: 2,
    seed: [
      { id: rgId, apiVersion: '2020-06-01', body: { location: 'westus' } },
      { id: assignmentId(same), ...held(contributor) },
      { id: assignmentId(other), ...held(contributor) },
      { id: assignmentId(unknownRole), ...held(contributor) },
      { id: assignmentId(customRole), ...held(contributor) },
      // The location a deleted vault is listed under, which ARM always has.
      {
        id: `/subscriptions/${sub}/providers/Microsoft.KeyVault/locations/westus`,
        apiVersion: '2024-11-01',
        body: {},
      },
      deletedVault('kv-deleted'),
      deletedVault('kv-moved', `/subscriptions/${sub}/resourceGroups/rg-elsewhere`),
      deletedVault('kv-purge'),
      {
        id: `${rgId}/providers/Microsoft.KeyVault/vaults/kv-live`,
        apiVersion: '2023-07-01',
        body: { location: 'westus', properties: { createMode: 'default', tenantId: 't-1' } },
      },
    ],
  });
  const assignment = (name: string, azureName: string, wellKnownName: string) =>
    JSON.stringify({
      apiVersion: 'authorization.azure.com/v1api20220401',
      kind: 'RoleAssignment',
      metadata: { name, namespace: 'default' },
      spec: {
        azureName,
        owner: { armId: rgId },
        principalId: 'p-1',
        roleDefinitionReference: { wellKnownName },
      },
    });
  const vault = (name: string, createMode: string) =>
    JSON.stringify({
      apiVersion: 'keyvault.azure.com/v1api20230701',
      kind: 'Vault',
      metadata: { name, namespace: 'default' },
      spec: {
        owner: { armId: rgId },
        location: 'westus',
        properties: { createMode, tenantId: 't-1' },
      },
    });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'adopt-roles-')), 'roles.yaml');
  writeFileSync(
    file,
    [
      // In another case than Azure spells it: the operator matches built-in names regardless of case.
      assignment('same-role', same, 'contributor'),
      assignment('other-role', other, 'Reader'),
      assignment('no-such-role', unknownRole, 'Chief Tea Officer'),
      // A custom role of that name is no built-in role: the operator only looks those up.
      assignment('custom-role', customRole, 'reader (custom)'),
      vault('kv-deleted', 'createOrRecover'),
      vault('kv-fresh', 'createOrRecover'),
      vault('kv-moved', 'createOrRecover'),
      vault('kv-purge', 'purgeThenCreate'),
      vault('kv-live', 'createOrRecover'),
    ].join('\n---\n'),
  );
  const run = await runCli(
    ['adopt-check', '-f', file, '-o', 'json', '--credential', 'local', '--subscription', sub],
    { ...emulator.env, KUBECONFIG: path.join(tmpdir(), 'no-such-kubeconfig') },
  );
  code = run.code;
  report = run.stdout ? (JSON.parse(run.stdout) as AdoptReport) : undefined;
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
});

describe('adopt-check on RoleAssignments with well-known role names', () => {
  const item = (name: string) => report?.items.find((i) => i.name === name);

  it('sends the built-in role’s ID for its well-known name: no change where Azure holds that role', () => {
    expect(item('same-role')).toMatchObject({ outcome: 'adopt-manage', changes: [] });
  });

  it('reports the role changing from the one Azure holds to the named one, by ID (ARM refuses that change)', () => {
    expect(item('other-role')?.changes).toEqual([
      { path: 'properties.roleDefinitionId', from: roleId(contributor), to: roleId(reader), immutable: true },
    ]);
  });

  it('answers unknown for a name no built-in role has, as the operator’s reconcile fails on it', () => {
    for (const name of ['no-such-role', 'custom-role'])
      expect(item(name)).toMatchObject({
        outcome: 'unknown',
        changes: [],
        reason: expect.stringContaining('spec.roleDefinitionReference.wellKnownName: no Azure built-in role'),
      });
    expect(code).toBe(10);
  });

  it('lists the role definitions once for the run, every page of them, and writes nothing', () => {
    const listings = emulator.requests().filter((r) => r.path.includes('/roleDefinitions'));
    expect(listings.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(listings.map((r) => new URL(r.path, 'https://x').searchParams.get('$skiptoken'))).toEqual([
      null,
      '2',
      '4',
    ]);
    expect(emulator.requests().filter((r) => r.method !== 'GET' && r.method !== 'POST')).toEqual([]);
  });
});

describe('adopt-check on key vaults with a create mode the operator decides in Azure', () => {
  const item = (name: string) => report?.items.find((i) => i.name === name);

  it('recovers a soft-deleted vault of the name, and says so', () => {
    expect(item('kv-deleted')).toMatchObject({
      outcome: 'create',
      reason: expect.stringContaining('ASO recovers the soft-deleted key vault kv-deleted'),
    });
    expect(item('kv-fresh')?.outcome).toBe('create');
    expect(item('kv-fresh')?.reason).not.toContain('soft-deleted');
  });

  it('answers unknown when the soft-deleted vault was in another resource group, as the reconcile fails', () => {
    expect(item('kv-moved')).toMatchObject({
      outcome: 'unknown',
      reason: expect.stringContaining('it was deleted from resource group rg-elsewhere, not rg-roles'),
    });
  });

  it('warns that purgeThenCreate purges the soft-deleted vault for good', () => {
    expect(item('kv-purge')?.reason).toContain(
      'ASO purges the soft-deleted key vault kv-purge in westus first',
    );
  });

  it('sends createMode default for a vault that exists: no change where Azure holds default', () => {
    expect(item('kv-live')).toMatchObject({ outcome: 'adopt-manage', changes: [] });
  });

  it('only reads: the deleted vaults are looked up with the API version the operator uses', () => {
    const lookups = emulator.requests().filter((r) => r.path.includes('/deletedVaults/'));
    expect(lookups.length).toBe(5);
    for (const r of lookups) expect(r.path).toContain('api-version=2024-11-01');
    expect(emulator.requests().filter((r) => r.method !== 'GET' && r.method !== 'POST')).toEqual([]);
  });
});
