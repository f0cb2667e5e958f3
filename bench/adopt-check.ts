// `npm run bench:adopt-check`: `kubectl aso adopt-check` over 300 resources against the ARM emulator with
// 80 ms latency and 5% of requests answered 429 (`Retry-After: 1`), against what a script does today: the
// same GETs one at a time through @azure/arm-resources (its default pipeline retries 429 with Retry-After).
// Both run in this process's run, against one emulator, so the ratio compares like with like. It also
// prints the lower bound (the GETs' wire time spread over the plugin's concurrency, plus one Retry-After
// wait and GET), the plugin's fixed cost (one resource, no latency; beside `node -e 0` measured in the same
// run), and the plugin's peak RSS (GNU time).
// Run `npm run build` first. `--runs N` measures each side N times (default 1) and takes the median.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type ArmEmulator,
  type ArmEmulatorEnv,
  type RequestRecord,
  startArmEmulator,
} from '../test/fixtures/arm-emulator/index.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const bin = join(root, 'bin/kubectl-aso');
const self = new URL(import.meta.url).pathname;
const subscription = '44444444-4444-4444-4444-444444444444';
const resourceCount = 300;
const latencyMs = 80;
const throttleFraction = 0.05;
const retryAfterMs = 1000;
const concurrency = 16;
const apiVersion = '2020-06-01';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] ?? 1) || 1;

const names = Array.from({ length: resourceCount }, (_, i) => `bench-rg-${String(i).padStart(3, '0')}`);
const idOf = (name: string) => `/subscriptions/${subscription}/resourceGroups/${name}`;

/** The baseline, run as a child (so NODE_EXTRA_CA_CERTS applies): GET each ID in turn, the naive way. */
async function sequentialBaseline(idsFile: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { ClientSecretCredential } = await import('@azure/identity');
  const { ResourceManagementClient } = await import('@azure/arm-resources');
  const env = process.env;
  const credential = new ClientSecretCredential(
    env.AZURE_TENANT_ID ?? '',
    env.AZURE_CLIENT_ID ?? '',
    env.AZURE_CLIENT_SECRET ?? '',
    { authorityHost: env.AZURE_AUTHORITY_HOST ?? '', disableInstanceDiscovery: true },
  );
  const client = new ResourceManagementClient(credential, subscription, {
    endpoint: env.AZURE_RESOURCE_MANAGER_ENDPOINT ?? '',
    credentials: { scopes: [`${env.AZURE_RESOURCE_MANAGER_AUDIENCE}/.default`] },
  });
  let found = 0;
  for (const id of JSON.parse(readFileSync(idsFile, 'utf8')) as string[]) {
    try {
      await client.resources.getById(id, apiVersion);
      found++;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    }
  }
  process.stdout.write(`${found}\n`);
}

interface Measured {
  ms: number;
  maxRssKb: number;
  code: number;
  stdout: string;
}

/** Runs a command with the emulator's environment, timing it, with its peak RSS from GNU time when available. */
function measure(command: string, commandArgs: string[], env: ArmEmulatorEnv): Promise<Measured> {
  const useTime = existsSync('/usr/bin/time');
  const argv = useTime ? ['-f', '%M', command, ...commandArgs] : commandArgs;
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(useTime ? '/usr/bin/time' : command, argv, {
      env: { ...process.env, ...env, KUBECONFIG: join(tmpdir(), 'no-kubeconfig-for-bench'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const maxRssKb = useTime ? Number(stderr.trim().split('\n').at(-1)) : Number.NaN;
      if (code !== 0 && code !== 10)
        process.stderr.write(
          `  ${command} ${commandArgs.join(' ')} exited ${code}: ${stderr.slice(0, 800)}\n`,
        );
      done({ ms, maxRssKb, code: code ?? -1, stdout });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Resource requests (not token requests) logged since `from`. */
function resourceRequestsSince(arm: ArmEmulator, from: number): RequestRecord[] {
  return arm
    .requests()
    .slice(from)
    .filter((r) => r.path.includes('/subscriptions/'));
}

function writeManifests(dir: string, list: string[]): string {
  const file = join(dir, `rgs-${list.length}.yaml`);
  writeFileSync(
    file,
    list
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
  return file;
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'dist'))) throw new Error('run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'bench-adopt-check-'));
  // Every other resource group exists: half the answers are 200, half 404 ResourceGroupNotFound.
  const seed = names
    .filter((_, i) => i % 2 === 0)
    .map((name) => ({ id: idOf(name), apiVersion, body: { location: 'westus' } }));
  const arm = await startArmEmulator({ seed, latencyMs, throttleFraction, randomSeed: 42 });
  const quiet = await startArmEmulator({ seed });
  const manifests = writeManifests(dir, names);
  const one = writeManifests(dir, names.slice(0, 1));
  const idsFile = join(dir, 'ids.json');
  writeFileSync(idsFile, JSON.stringify(names.map(idOf)));
  const pluginArgs = (file: string) => [
    bin,
    'adopt-check',
    '-f',
    file,
    '-o',
    'json',
    '--credential',
    'local',
    '--subscription',
    subscription,
    '--concurrency',
    String(concurrency),
  ];
  try {
    process.stderr.write(
      `adopt-check bench: ${resourceCount} resources, ${latencyMs} ms latency, ${throttleFraction * 100}% 429 (Retry-After 1 s), concurrency ${concurrency}, ${runs} run(s)\n`,
    );
    const plugin: Measured[] = [];
    const pluginRequests: RequestRecord[][] = [];
    const baseline: Measured[] = [];
    const baselineRequests: RequestRecord[][] = [];
    const startup: Measured[] = [];
    const nodeAlone: Measured[] = [];
    for (let run = 0; run < runs; run++) {
      nodeAlone.push(await measure(process.execPath, ['-e', '0'], quiet.env));
      startup.push(await measure(process.execPath, pluginArgs(one), quiet.env));
      let from = arm.requests().length;
      const measured = await measure(process.execPath, pluginArgs(manifests), arm.env);
      const report = JSON.parse(measured.stdout) as { items: Array<{ outcome: string }> };
      if (report.items.length !== resourceCount || report.items.some((i) => i.outcome === 'unknown'))
        throw new Error('the plugin did not answer every resource');
      plugin.push(measured);
      pluginRequests.push(resourceRequestsSince(arm, from));
      from = arm.requests().length;
      const loop = await measure(process.execPath, [self, '--sequential-baseline', idsFile], arm.env);
      if (loop.stdout.trim() !== String(seed.length))
        throw new Error(`the sequential loop found ${loop.stdout.trim()} of ${seed.length}`);
      baseline.push(loop);
      baselineRequests.push(resourceRequestsSince(arm, from));
    }
    const pluginMs = median(plugin.map((m) => m.ms));
    const baselineMs = median(baseline.map((m) => m.ms));
    const startupMs = median(startup.map((m) => m.ms));
    const nodeMs = median(nodeAlone.map((m) => m.ms));
    const throttled = median(pluginRequests.map((r) => r.filter((x) => x.status === 429).length));
    const requests = median(pluginRequests.map((r) => r.length));
    // No run beats its GETs' wire time spread over the slots; waits do not hold a slot, so the Retry-After
    // waits the run met overlap with other GETs, except the last one's (a 429 met at the end of the wire
    // phase still needs its wait and one more GET): the waits add once, not once per 429.
    const wire = (requests * latencyMs) / concurrency;
    const lowerBound = wire + (throttled > 0 ? retryAfterMs + latencyMs : 0);
    // The plugin's lookup phase alone, from its first resource GET to its last answer, in the emulator's log:
    // what concurrency and retry decide, without process start, module loading and the token.
    const span = median(pluginRequests.map((r) => (r.at(-1)?.answeredAt ?? 0) - (r[0]?.receivedAt ?? 0)));
    const rssMb = Math.max(...plugin.map((m) => m.maxRssKb)) / 1024;
    const row = (label: string, value: string, note = '') =>
      console.log(`  ${label.padEnd(58)} ${value.padStart(9)}  ${note}`);
    console.log(
      'adopt-check, 300 resources through the ARM emulator (80 ms latency, 5% 429 with Retry-After: 1)',
    );
    row('plugin, concurrency 16 (ms)', pluginMs.toFixed(0), `${requests} GETs, ${throttled} answered 429`);
    row(
      'baseline: sequential getById loop, one at a time (ms)',
      baselineMs.toFixed(0),
      `${median(baselineRequests.map((r) => r.length))} GETs, ${median(baselineRequests.map((r) => r.filter((x) => x.status === 429).length))} answered 429`,
    );
    row('lower bound: GETs x 80 ms / 16 + one Retry-After + 80 ms (ms)', lowerBound.toFixed(0));
    row(
      'plugin fixed cost: one resource, no latency (ms)',
      startupMs.toFixed(0),
      `(target < 250) ${startupMs < 250 ? 'PASS' : 'MISS'}; ${(startupMs / nodeMs).toFixed(1)}x \`node -e 0\` (${nodeMs.toFixed(0)} ms)`,
    );
    row(
      'plugin lookup phase, first GET to last answer (ms)',
      span.toFixed(0),
      `${(span / lowerBound).toFixed(2)}x the lower bound`,
    );
    const speedup = baselineMs / pluginMs;
    row(
      'speed-up over the sequential loop',
      `${speedup.toFixed(1)}x`,
      `(target >= 8x) ${speedup >= 8 ? 'PASS' : 'MISS'}`,
    );
    const overBound = pluginMs / (lowerBound + startupMs);
    row(
      'plugin / (lower bound + fixed cost)',
      `${overBound.toFixed(2)}x`,
      `(target <= 1.25x) ${overBound <= 1.25 ? 'PASS' : 'MISS'}`,
    );
    if (!Number.isNaN(rssMb))
      row('plugin peak RSS (MB)', rssMb.toFixed(0), `(target < 200) ${rssMb < 200 ? 'PASS' : 'MISS'}`);
  } finally {
    await arm.stop();
    await quiet.stop();
  }
}

if (args[0] === '--sequential-baseline') await sequentialBaseline(args[1] ?? '');
else await main();
