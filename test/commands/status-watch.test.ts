import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, freshNamespace, testPlane } from '../fixtures/cluster.ts';
import { relayToPlane } from '../fixtures/relay.ts';
import { createObject, testKind, writeReady } from '../lib/status/fixtures.ts';

const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;

/** The plugin running in the background, with what it printed so far. */
function startCli(
  args: string[],
  kubeconfig = testPlane().kubeconfig,
): { child: ChildProcess; output: () => string; errors: () => string; exited: Promise<number> } {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NO_COLOR: '1', KUBECONFIG: kubeconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, output: () => stdout, errors: () => stderr, exited };
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const progressing = { status: 'False', severity: 'Info', reason: 'Reconciling' };
const succeeded = { status: 'True', reason: 'Succeeded' };

describe('kubectl aso status --watch and --wait on the real control plane', () => {
  it('--watch shows a change written while it runs', async () => {
    const kind = await testKind('Watched');
    const namespace = await freshNamespace('watch');
    await createObject(kind, namespace, { name: 'w1', ready: progressing });
    const run = startCli(['status', '-n', namespace, '--watch', '-o', 'json']);
    try {
      await until('the first event', () => run.output().includes('"name":"w1"'));
      expect(JSON.parse(run.output().split('\n')[0] ?? '')).toMatchObject({
        type: 'ADDED',
        item: { name: 'w1', state: 'Progressing' },
      });
      await writeReady(await adminClient(), kind, namespace, 'w1', {
        status: 'False',
        severity: 'Error',
        reason: 'InvalidParameter',
        message: 'bad sku',
      });
      await until('the change', () => run.output().includes('InvalidParameter'));
      const events = run
        .output()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.at(-1)).toMatchObject({
        type: 'MODIFIED',
        item: { name: 'w1', state: 'Error', reason: 'InvalidParameter', message: 'bad sku' },
      });
      await createObject(kind, namespace, { name: 'w2', ready: succeeded });
      await until('the new object', () => run.output().includes('"name":"w2"'));
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
  });

  it('--watch prints a line per change in the table format', async () => {
    const kind = await testKind('Watchedrow');
    const namespace = await freshNamespace('watch');
    await createObject(kind, namespace, { name: 'r1', ready: progressing });
    const run = startCli(['status', '-n', namespace, '--watch']);
    try {
      await until('the table', () => run.output().includes('1 resource: 1 Progressing'));
      await writeReady(await adminClient(), kind, namespace, 'r1', succeeded);
      await until('the changed row', () => /r1\s+Ready\s+Succeeded/.test(run.output()));
    } finally {
      run.child.kill('SIGTERM');
    }
    await run.exited;
  });

  it('--wait returns once the last object turns Ready', async () => {
    const kind = await testKind('Awaited');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, { name: 'a1', ready: succeeded });
    await createObject(kind, namespace, { name: 'a2', ready: progressing });
    await createObject(kind, namespace, { name: 'a3', ready: null });
    const run = startCli(['status', '-n', namespace, '--wait', '--timeout', '40s', '-o', 'json']);
    await until('the first progress line', () => run.errors().includes('waiting: 1/3 Ready'));
    const admin = await adminClient();
    await writeReady(admin, kind, namespace, 'a2', succeeded);
    await until('the change to be seen', () => run.errors().includes('waiting: 2/3 Ready'));
    expect(run.child.exitCode).toBeNull();
    await writeReady(admin, kind, namespace, 'a3', succeeded);
    expect(await run.exited).toBe(0);
    expect(run.errors()).toContain('waiting: 3/3 Ready');
    const report = JSON.parse(run.output());
    expect(report.summary.byState.Ready).toBe(3);
    expect(report.items.every((item: { ready: boolean }) => item.ready)).toBe(true);
  });

  it('--wait times out with its own exit code while an object is not Ready', async () => {
    const kind = await testKind('Stuck');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, { name: 'ok', ready: succeeded });
    await createObject(kind, namespace, {
      name: 'stuck',
      ready: { status: 'False', severity: 'Warning', reason: 'WaitingForOwner' },
    });
    const started = Date.now();
    const run = await runCli(['status', '-n', namespace, '--wait', '--timeout', '2s'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(run.code).toBe(12);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(run.stdout).toMatch(/stuck\s+Warning\s+Warning\s+WaitingForOwner/);
    expect(run.stderr).toContain('waiting: 1/2 Ready');
  });

  it('--wait on a selection that matches nothing is exit 14, naming the selection', async () => {
    const kind = await testKind('Unmatched');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, { name: 'other', ready: { status: 'True', reason: 'Succeeded' } });
    const run = await runCli(
      ['status', '-n', namespace, '-l', 'app=nosuch', '--kind', 'Unmatched', '--wait', '--timeout', '5s'],
      { KUBECONFIG: testPlane().kubeconfig },
    );
    expect(run.code).toBe(14);
    expect(run.stderr).toContain('no matching resources found');
    expect(run.stderr).toContain(`namespace ${namespace}`);
    expect(run.stderr).toContain('-l app=nosuch');
    expect(run.stderr).toContain('--kind Unmatched');
    expect(run.stdout).toBe('');
  });

  it('--wait --fail-on error stops at the first object the operator gave up on', async () => {
    const kind = await testKind('Doomed');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, {
      name: 'bad',
      ready: { status: 'False', severity: 'Error', reason: 'SkuNotAvailable' },
    });
    const run = await runCli(
      ['status', '-n', namespace, '--wait', '--timeout', '30s', '--fail-on', 'error'],
      {
        KUBECONFIG: testPlane().kubeconfig,
      },
    );
    expect(run.code).toBe(11);
  });

  it('--wait --fail-on error does not stop at a stale Error: the user may just have applied a fix', async () => {
    const kind = await testKind('Fixed');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, {
      name: 'fixed',
      ready: { status: 'False', severity: 'Error', reason: 'SkuNotAvailable' },
      stale: true,
    });
    const run = startCli(['status', '-n', namespace, '--wait', '--timeout', '30s', '--fail-on', 'error']);
    await until('the first progress line', () => run.errors().includes('waiting: 0/1 Ready'));
    // A later event seen proves the run outlived the stale Error, without guessing how long to wait.
    await createObject(kind, namespace, { name: 'later', ready: succeeded });
    await until('the later object', () => run.errors().includes('waiting: 1/2 Ready'));
    expect(run.child.exitCode).toBeNull();
    await writeReady(await adminClient(), kind, namespace, 'fixed', { ...succeeded, observedGeneration: 2 });
    expect(await run.exited).toBe(0);
  });

  it('--wait --fail-on warning judges warnings at the end, not at the first one', async () => {
    const kind = await testKind('Retried');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, {
      name: 'retried',
      ready: { status: 'False', severity: 'Warning', reason: 'WaitingForOwner' },
    });
    const run = startCli(['status', '-n', namespace, '--wait', '--timeout', '30s', '--fail-on', 'warning']);
    await until('the first progress line', () => run.errors().includes('waiting: 0/1 Ready'));
    // A later event seen proves the run did not stop at the first warning, without a fixed sleep.
    await createObject(kind, namespace, { name: 'later', ready: succeeded });
    await until('the later object', () => run.errors().includes('waiting: 1/2 Ready'));
    expect(run.child.exitCode).toBeNull();
    await writeReady(await adminClient(), kind, namespace, 'retried', succeeded);
    expect(await run.exited).toBe(0);

    await writeReady(await adminClient(), kind, namespace, 'retried', {
      status: 'False',
      severity: 'Warning',
      reason: 'WaitingForOwner',
    });
    const started = Date.now();
    const stuck = await runCli(
      ['status', '-n', namespace, '--wait', '--timeout', '1s', '--fail-on', 'warning'],
      { KUBECONFIG: testPlane().kubeconfig },
    );
    expect(stuck.code).toBe(11);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('--wait exits as unreachable (4), without a stack trace, when the connection drops while waiting', async () => {
    const kind = await testKind('Dropped');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, { name: 'd1', ready: progressing });
    const relay = await relayToPlane();
    const run = startCli(['status', '-n', namespace, '--wait', '--timeout', '40s'], relay.kubeconfig);
    await until('the first progress line', () => run.errors().includes('waiting: 0/1 Ready'));
    await relay.cut();
    expect(await run.exited).toBe(4);
    expect(run.errors()).toContain('cannot reach the cluster');
    expect(run.errors()).not.toMatch(/\n\s+at /);
    expect(run.errors()).not.toContain('Unhandled');
  });

  it('--wait --timeout 0 checks once, and a timeout beyond what a timer holds still waits', async () => {
    const kind = await testKind('Once');
    const namespace = await freshNamespace('wait');
    await createObject(kind, namespace, { name: 'done', ready: succeeded });
    const ready = await runCli(['status', '-n', namespace, '--wait', '--timeout', '0'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(ready.code).toBe(0);
    const long = await runCli(['status', '-n', namespace, '--wait', '--timeout', '1000h'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(long.code).toBe(0);
    expect(long.stderr).not.toContain('TimeoutOverflowWarning');
    await createObject(kind, namespace, { name: 'pending', ready: progressing });
    const notReady = await runCli(['status', '-n', namespace, '--wait', '--timeout', '0'], {
      KUBECONFIG: testPlane().kubeconfig,
    });
    expect(notReady.code).toBe(12);
    expect(notReady.stdout).toMatch(/pending\s+Progressing/);
  });

  it('--watch --fail-on applies when the watch ends', async () => {
    const kind = await testKind('Watchfail');
    const namespace = await freshNamespace('watch');
    await createObject(kind, namespace, {
      name: 'bad',
      ready: { status: 'False', severity: 'Error', reason: 'SkuNotAvailable' },
    });
    const run = startCli(['status', '-n', namespace, '--watch', '--fail-on', 'error']);
    await until('the table', () => run.output().includes('1 resource: 1 Error'));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(11);
  });

  it('--watch lines under the table keep its columns and name ambiguous kinds with their group', async () => {
    const [a, b] = [await testKind('Twin'), await testKind('Twin')];
    const namespace = await freshNamespace('watch');
    await createObject(a, namespace, { name: 'ta', ready: progressing });
    await createObject(b, namespace, { name: 'a-much-longer-name-than-the-other', ready: progressing });
    const run = startCli(['status', '-n', namespace, '--watch']);
    try {
      await until('the table', () => run.output().includes('2 resources: 2 Progressing'));
      await writeReady(await adminClient(), a, namespace, 'ta', succeeded);
      await until('the changed row', () => /ta\s+Ready\s+Succeeded/.test(run.output()));
    } finally {
      run.child.kill('SIGTERM');
    }
    await run.exited;
    const lines = run.output().split('\n');
    const header = lines[0] ?? '';
    const changed = lines.findLast((line) => /ta\s+Ready/.test(line)) ?? '';
    expect(changed).toContain(`Twin.${a.group}`);
    expect(changed.indexOf(' ta ') + 1).toBe(header.indexOf(' NAME ') + 1);
    expect(changed.indexOf('Ready')).toBe(header.indexOf('STATE'));
  });

  it('--watch reports a type that vanishes while it runs, on stderr and as a JSON warning', async () => {
    const kind = await testKind('Vanishing');
    const namespace = await freshNamespace('watch');
    await createObject(kind, namespace, { name: 'v1', ready: succeeded });
    const json = startCli([
      'status',
      '-n',
      namespace,
      '--watch',
      '-o',
      'json',
      '--kind',
      `vanishing.${kind.group}`,
    ]);
    const table = startCli(['status', '-n', namespace, '--watch', '--kind', `vanishing.${kind.group}`]);
    try {
      await until('the first event', () => json.output().includes('"name":"v1"'));
      await until('the table', () => table.output().includes('1 resource: 1 Ready'));
      await (await adminClient()).request({
        method: 'DELETE',
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${kind.plural}.${kind.group}`,
        subject: { verb: 'delete', resource: 'customresourcedefinitions' },
      });
      await until('the JSON warning', () => json.output().includes('"type":"WARNING"'), 40_000);
      await until('the warning on stderr', () => table.errors().includes('warning: '), 40_000);
    } catch (error) {
      json.child.kill('SIGTERM');
      table.child.kill('SIGTERM');
      throw error;
    }
    // With its only type gone a watch has nothing left to follow and ends by itself; a SIGTERM sent now
    // could land while it is already on its way out, after it stopped listening for signals.
    expect(await json.exited).toBe(10);
    expect(await table.exited).toBe(10);
    const warning = json
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((event) => event.type === 'WARNING');
    expect(warning.warning).toMatchObject({ resource: `${kind.plural}.${kind.group}`, reason: 'NotFound' });
    expect(table.errors()).toContain(`${kind.plural}.${kind.group}`);
  }, 60_000);
});
