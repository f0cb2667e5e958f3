import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Explanation } from '../../src/lib/explain/explain.ts';
import { runCli } from '../fixtures/cli.ts';
import { freshNamespace, testPlane } from '../fixtures/cluster.ts';
import { applyGraphCrds, createAso, ready, v220Crds } from '../lib/graph/fixtures.ts';
import type { TestKind } from '../lib/status/fixtures.ts';

function explain(args: string[], env: Record<string, string> = {}) {
  return runCli(['explain', ...args], { KUBECONFIG: testPlane().kubeconfig, ...env });
}

const denied =
  "The client 'aso' with object id '0000' does not have authorization to perform action 'Microsoft.Resources/subscriptions/resourcegroups/write' over scope '/subscriptions/00000000-0000-0000-0000-000000000001/resourcegroups/rg' or the scope is invalid. If access was recently granted, please refresh your credentials.";

describe.runIf(v220Crds.present)('kubectl aso explain on the real control plane', () => {
  let ns: string;

  beforeAll(async () => {
    const kinds = await applyGraphCrds();
    const [rg, server, db] = [kinds.ResourceGroup, kinds.FlexibleServer, kinds.FlexibleServersDatabase] as [
      TestKind,
      TestKind,
      TestKind,
    ];
    ns = await freshNamespace('explain');
    const waiting = (name: string) =>
      ready('False', 'Warning', 'WaitingForOwner', `Owner "${name}" cannot be found or is not Ready`);
    await createAso(
      rg,
      ns,
      'rg',
      { location: 'westus' },
      ready('False', 'Warning', 'AuthorizationFailed', denied),
    );
    await createAso(server, ns, 'pg', { owner: { name: 'rg' }, location: 'westus' }, waiting('rg'));
    await createAso(db, ns, 'db', { owner: { name: 'pg' } }, waiting('pg'));
    await createAso(db, ns, 'orphan', { owner: { name: 'nosuch' } }, waiting('nosuch'));
    await createAso(rg, ns, 'rg-ok', { location: 'westus' }, ready('True', '', 'Succeeded'));
    await createAso(
      server,
      ns,
      'pg-secret',
      {
        owner: { name: 'rg-ok' },
        location: 'westus',
        administratorLoginPassword: { name: 'pg-admin', key: 'password' },
      },
      ready('False', 'Warning', 'SecretNotFound', 'secret "pg-admin" not found'),
    );
    await createAso(
      server,
      ns,
      'pg-bad',
      { owner: { name: 'rg-ok' }, location: 'westus' },
      ready(
        'False',
        'Error',
        'InvalidRequestContent',
        'The request content was invalid and could not be deserialized.',
      ),
    );
  });

  it('walks past objects waiting for their owner to the one whose problem is its own, and says it in full', async () => {
    const run = await explain(['FlexibleServersDatabase/db', '-n', ns], { COLUMNS: '80' });
    expect(run.code).toBe(26);
    expect(run.stdout).toContain(
      'FlexibleServersDatabase/db is not Ready.\nwaits for FlexibleServer/pg (spec.owner)\nwaits for ResourceGroup/rg (spec.owner)\n',
    );
    expect(run.stdout).toContain('cause:   ResourceGroup/rg: Warning, AuthorizationFailed');
    // The README shows this run's output: EXPLAIN_README=FILE writes it there to copy.
    if (process.env.EXPLAIN_README) writeFileSync(process.env.EXPLAIN_README, run.stdout);
    const message = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('message: ') || (line.startsWith('         ') && line.trim() !== ''))
      .map((line) => line.slice(9))
      .join(' ');
    expect(message).toBe(denied);
    expect(run.stdout).toContain(
      "class:   ARM error AuthorizationFailed, which the operator's classifier retries",
    );
    expect(run.stdout).toContain('retries: yes: severity Warning, the operator keeps trying');
    expect(run.stdout).toContain("next:    grant the operator's identity the role it lacks");
    const json = JSON.parse(
      (await explain(['flexibleserversdatabases/db', '-n', ns, '-o', 'json'])).stdout,
    ) as Explanation;
    expect(json.steps.map((step) => step.label)).toEqual([
      'FlexibleServersDatabase/db',
      'FlexibleServer/pg',
      'ResourceGroup/rg',
    ]);
    expect(json.class).toBe('retrying');
  });

  it('names a missing owner or secret as the cause, with the field that names it', async () => {
    const orphan = await explain(['FlexibleServersDatabase/orphan', '-n', ns, '-o', 'json']);
    expect(orphan.code).toBe(25);
    const missing = JSON.parse(orphan.stdout) as Explanation;
    expect(missing.class).toBe('missing');
    expect(missing.cause.next).toBe(
      'create FlexibleServer/nosuch, or change spec.owner of FlexibleServersDatabase/orphan',
    );
    const secret = await explain(['FlexibleServer/pg-secret', '-n', ns]);
    expect(secret.code).toBe(25);
    expect(secret.stdout).toContain('waits for Secret/pg-admin (spec.administratorLoginPassword)');
    expect(secret.stdout).toContain(`next:    create Secret/pg-admin in namespace ${ns}`);
  });

  it('says an Error is given up on, and a Ready object needs nothing', async () => {
    const bad = await explain(['FlexibleServer/pg-bad', '-n', ns]);
    expect(bad.code).toBe(27);
    expect(bad.stdout).toContain(
      "class:   ARM error InvalidRequestContent, which the operator's classifier deems fatal",
    );
    expect(bad.stdout).toContain('retries: no: severity Error, the operator gave up until the spec changes');
    const ok = await explain(['resourcegroup/rg-ok', '-n', ns]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('ResourceGroup/rg-ok is Ready: nothing to explain.\n');
  });
});
