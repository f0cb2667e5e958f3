import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import { type ArmEmulator, startArmEmulator } from '../fixtures/arm-emulator/index.ts';
import { runCli } from '../fixtures/cli.ts';

// A RoleAssignment naming its role by well-known name: the operator's extension swaps the name for the
// built-in role's ID before the PUT, listing ARM's role definitions once; adopt-check does the same through
// the real @azure/arm-resources client in the built plugin, against the emulator. No cluster.

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
