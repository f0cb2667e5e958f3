import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import {
  type ArmEmulator,
  type ArmEmulatorOptions,
  startArmEmulator,
} from '../fixtures/arm-emulator/index.ts';
import type { RequestRecord } from '../fixtures/arm-emulator/server.ts';
import { runCli } from '../fixtures/cli.ts';

// adopt-check's own retry (src/lib/azure/retry.ts) against the emulator's fault injection, through the
// real @azure/identity and @azure/arm-resources in the built plugin. No cluster: --credential local and
// --subscription, as a user without cluster access would run it.

const sub = '33333333-3333-3333-3333-333333333333';
const rgId = (name: string) => `/subscriptions/${sub}/resourceGroups/${name}`;

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

/** Starts an emulator holding resource groups `rg-0..rg-{count-1}` and writes their manifests. */
async function setUp(count: number, faults: ArmEmulatorOptions) {
  const names = Array.from({ length: count }, (_, i) => `rg-${i}`);
  emulator = await startArmEmulator({
    ...faults,
    seed: names.map((name) => ({ id: rgId(name), apiVersion: '2020-06-01', body: { location: 'westus' } })),
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'adopt-retry-')), 'rgs.yaml');
  writeFileSync(
    file,
    names
      .map((name) =>
        JSON.stringify({
          apiVersion: 'resources.azure.com/v1api20200601',
          kind: 'ResourceGroup',
          metadata: { name, namespace: 'default' },
          spec: { location: 'westus' },
        }),
      )
      .join('\n---\n'),
  );
  return { file, arm: emulator };
}

async function adoptCheck(file: string, arm: ArmEmulator, extra: string[] = []) {
  const run = await runCli(
    ['adopt-check', '-f', file, '-o', 'json', '--credential', 'local', '--subscription', sub, ...extra],
    { ...arm.env, KUBECONFIG: path.join(tmpdir(), 'no-such-kubeconfig') },
  );
  return { run, report: run.stdout ? (JSON.parse(run.stdout) as AdoptReport) : undefined };
}

/** Resource GETs only (not the token endpoints). */
function resourceRequests(arm: ArmEmulator): RequestRecord[] {
  return arm.requests().filter((r) => r.path.includes('/subscriptions/'));
}

/** For each throttled request, how long until the same path was asked again (ms, emulator's clock). */
function waitsAfter429(records: RequestRecord[]): number[] {
  const waits: number[] = [];
  records.forEach((record, i) => {
    if (record.status !== 429) return;
    const next = records.slice(i + 1).find((r) => r.path === record.path);
    if (next) waits.push(next.receivedAt - record.answeredAt);
  });
  return waits;
}

describe('adopt-check retries against the ARM emulator', () => {
  it('rides out a 5xx storm (every request fails for 2.5 s, then none) and answers every resource', async () => {
    const { file, arm } = await setUp(4, { serverErrorStormMs: 2500 });
    const { run, report } = await adoptCheck(file, arm);
    expect(run.code).toBe(0);
    expect(report?.items.map((i) => i.outcome)).toEqual(Array(4).fill('adopt-manage'));
    const statuses = resourceRequests(arm).map((r) => r.status);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(8);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
  }, 60_000);

  it('gives up on a permanent 5xx at the deadline: unknown naming the resource and ARM answer, exit 10', async () => {
    const { file, arm } = await setUp(3, { serverErrorFraction: 1 });
    const started = Date.now();
    const { run, report } = await adoptCheck(file, arm, ['--retry-deadline', '3']);
    expect(run.code).toBe(10);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    for (const item of report?.items ?? []) {
      expect(item).toMatchObject({ outcome: 'unknown', exists: null });
      expect(item.reason).toContain(`gave up reading ${item.armId}`);
      expect(item.reason).toContain('ARM answered 500 InternalServerError');
    }
    expect(report?.items).toHaveLength(3);
    // Bounded by the deadline, not by attempts x resources (the process start is a few seconds more).
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it.each([
    ['seconds', 1990],
    ['http-date', 1900],
    ['ms', 1990],
  ] as const)(
    'honours a 429 Retry-After written as %s (measured in the request log)',
    async (format, least) => {
      const { file, arm } = await setUp(6, {
        throttleFraction: 0.5,
        retryAfterSeconds: 2,
        retryAfterFormat: format,
        randomSeed: 7,
      });
      const { run, report } = await adoptCheck(file, arm);
      expect(run.code).toBe(0);
      expect(report?.items.every((i) => i.outcome === 'adopt-manage')).toBe(true);
      const waits = waitsAfter429(resourceRequests(arm));
      expect(waits.length).toBeGreaterThan(0);
      for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(least);
    },
    60_000,
  );

  it('paces by x-ms-ratelimit-remaining-subscription-reads: a spent budget holds requests instead of drawing 429s', async () => {
    const { file, arm } = await setUp(7, { readBudget: 3, readBudgetWindowMs: 1000 });
    const { run, report } = await adoptCheck(file, arm, ['--concurrency', '1']);
    expect(run.code).toBe(0);
    expect(report?.items).toHaveLength(7);
    const statuses = resourceRequests(arm).map((r) => r.status);
    expect(statuses).toEqual(Array(7).fill(200));
  }, 60_000);

  it('prints only the result when stderr is not a terminal (no spinner), and spins on a terminal', async () => {
    const { file, arm } = await setUp(3, { latencyMs: 50 });
    const args = ['adopt-check', '-f', file, '--credential', 'local', '--subscription', sub];
    const env = { ...arm.env, KUBECONFIG: path.join(tmpdir(), 'no-such-kubeconfig') };
    const piped = await runCli(args, env);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain('\r');
    expect(piped.stdout).not.toContain('\u001b');
    expect(piped.stdout).toContain('3 resources: 3 adopt-manage');
    // On a pseudo-terminal (util-linux `script`), the table run shows progress and clears it; JSON does not.
    const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;
    const onTty = (extra: string[]) =>
      runCli(
        ['-qec', [process.execPath, bin, ...args, ...extra].map((a) => `'${a}'`).join(' '), '/dev/null'],
        env,
        '/usr/bin/script',
      );
    const table = await onTty([]);
    expect(table.stdout).toContain('checking in Azure 3/3');
    expect(table.stdout).toContain('\r\x1b[K');
    const json = await onTty(['-o', 'json']);
    expect(json.stdout).not.toContain('checking in Azure');
  }, 60_000);
});
