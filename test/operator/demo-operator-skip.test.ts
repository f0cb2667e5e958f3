import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const stateDir = mkdtempSync(join(tmpdir(), 'kubectl-aso-demo-skip-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

/**
 * `npm run demo` on a lone clone (no ../shared beside it, so no real v2.20.0 CRDs): its last part, the real
 * operator, is skipped with one line whether or not the operator is built here, and the demo ends green.
 */
describe("the demo's part on the real operator, without the shared data", () => {
  it('skips with one visible line and exit 0 when the real CRDs are missing, before starting anything', () => {
    const demo = spawnSync('bash', ['scripts/demo-operator.sh'], {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        KUBECTL_ASO_SHARED_DIR: join(stateDir, 'no-shared'),
        OPERATOR_CLUSTER_DIR: stateDir,
      },
      timeout: 60_000,
    });
    expect(demo.status, demo.stderr).toBe(0);
    const output = `${demo.stdout}${demo.stderr}`;
    expect(output).not.toMatch(/error/i);
    const skipped = output.split('\n').filter((line) => /skipped/i.test(line));
    expect(skipped, output).toHaveLength(1);
    expect(output.split('\n').filter((line) => line.length > 0 && !line.startsWith('=='))).toEqual(skipped);
  });
});
