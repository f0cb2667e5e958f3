import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goForOperator } from '../fixtures/operator-controller.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const neededBy = 'test/operator/demo-operator.plane.test.ts';
const go = goForOperator(neededBy);
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);
const root = new URL('../..', import.meta.url).pathname;
const stateDir = resolve(root, `.local/operator-demo-${process.pid}`);

function run(
  command: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, OPERATOR_CLUSTER_DIR: stateDir },
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The request-log summary line the demo prints for one resource group. */
function trafficOf(stdout: string, name: string): string {
  return stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '';
}

/**
 * `npm run demo`'s last part (scripts/demo-operator.sh) on ASO v2.20.0's own controller: the predictions it
 * prints, what the operator then did in the emulator, and `cluster:down` leaving nothing behind.
 */
describe.skipIf(!go || !crds.present)("the demo's part on the real operator", () => {
  afterAll(async () => {
    await run('node', ['test/fixtures/operator-controller-cli.ts', 'down']);
  }, 120_000);

  it('predicts with adopt-check, and the operator does in ARM what was predicted', async () => {
    const demo = await run('bash', ['scripts/demo-operator.sh']);
    expect(demo.stderr).not.toMatch(/error/i);
    expect(demo.code).toBe(0);
    const outcomes = Object.fromEntries(
      [...demo.stdout.matchAll(/^demo-operator\s+ResourceGroup\s+(\S+)\s+(?:yes|no)\s+\S+\s+(\S+)/gm)].map(
        (match) => [match[1], match[2]],
      ),
    );
    expect(outcomes).toEqual({
      'rg-demo-new': 'create',
      'rg-demo-shared': 'adopt-manage',
      'rg-demo-legacy': 'adopt-detach-on-delete',
      'rg-demo-audit': 'skip-exists',
      'rg-demo-gone': 'skip-missing',
    });
    // The operator created the new group, wrote over the two it adopted, only read the skipped ones.
    expect(trafficOf(demo.stdout, 'rg-demo-new')).toContain('PUT 201');
    for (const adopted of ['rg-demo-shared', 'rg-demo-legacy'])
      expect(trafficOf(demo.stdout, adopted)).toMatch(/^\S+\s+GET 200 x\d+, PUT 200/);
    for (const skipped of ['rg-demo-audit', 'rg-demo-gone'])
      expect(trafficOf(demo.stdout, skipped)).not.toMatch(/PUT|DELETE/);
    expect(demo.stdout).toMatch(/rg-demo-gone\s+Warning\s+Warning\s+AzureResourceNotFound/);
    expect(demo.stdout).toContain('5 resources: 4 Ready, 1 Warning');
    // Deleting the objects deleted in ARM only the groups the operator manages.
    const deletes = [...demo.stdout.matchAll(/^\/subscriptions\/\S+\/resourceGroups\/(\S+) 202$/gm)].map(
      (m) => m[1],
    );
    expect(deletes.sort()).toEqual(['rg-demo-new', 'rg-demo-shared']);

    const down = await run('node', ['test/fixtures/operator-controller-cli.ts', 'down']);
    expect(down.code).toBe(0);
    expect(existsSync(stateDir)).toBe(false);
  }, 900_000);
});
