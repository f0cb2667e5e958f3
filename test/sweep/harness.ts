import { spawn } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { exitCodes } from '../../src/lib/exit-codes.ts';
import { childOutput } from '../fixtures/child-output.ts';
import { type CliRun, nobody, runCli, runCliAs } from '../fixtures/cli.ts';

/** The value planted in inputs (inline passwords, kubeconfig tokens and keys) that no output may show. */
export const secretMarker = 'Sw33p-S3cret-Marker-4f7c';

/**
 * What a case may end with: an exact code; `bad` (the input is bad: a documented code other than 0, so
 * never a silent success); or `documented` (any documented code but 1, for an unusual input whose right
 * answer is a matter of judgement).
 */
export type Expected = number | 'bad' | 'documented';

/** Where a case builds its input, and the servers it may point a kubeconfig at. */
export interface CaseContext {
  /** A fresh folder of this case's own; everything in it is compared before and after the run. */
  dir: string;
  /** Writes a file under `dir` (mode 644 unless given) and returns its path. */
  file: (name: string, content: string | Buffer, mode?: number) => string;
  /** Creates a folder under `dir` (mode 777 unless given, so the unprivileged user may use it). */
  folder: (name: string, mode?: number) => string;
  /** A loopback port where nothing listens. */
  closedPort: number;
  /** A loopback port that accepts connections and never answers. */
  silentPort: number;
}

/** One bad or unusual input and what the built plugin must make of it. */
export interface SweepCase {
  /** Category and input, unique: the failure list names cases by it. */
  name: string;
  /** Builds the input and returns the plugin's arguments. */
  args: (context: CaseContext) => string[];
  expected: Expected;
  /** Runs the plugin as this user (nobody) instead of root; permission cases need it. */
  as?: number;
  /** Environment on top of the base one (no kubeconfig, the case's own HOME); may use the context. */
  env?: (context: CaseContext) => Record<string, string>;
  /** Text stderr must contain, checked after the code: what the message must name. */
  stderrHas?: (context: CaseContext) => string;
  /** Files the run must write (a successful --write), each with its whole expected text; nothing else may change. */
  writes?: (context: CaseContext) => Array<{ path: string; text: string }>;
  /** Paths (relative to `dir`) a successful run creates, such as --output-dir's files; nothing else may appear. */
  creates?: string[];
  /**
   * stdout is the input's own text (YAML or JSON of the manifests, or -o json|yaml), which keeps names as
   * they are: its control and bidi characters are not checked, only stderr's.
   */
  machineStdout?: boolean;
  /** Sends this signal once the run has waited this long, for a run that waits on a silent server. */
  signal?: { name: 'SIGINT' | 'SIGTERM'; afterMs: number };
}

/** Longest a run may take before it counts as a hang. */
export const runTimeoutMs = 30_000;

const documentedCodes: Set<number> = new Set(Object.values(exitCodes).map((row) => row.code));
// Raw C0 controls but newline and tab, DEL, C1 controls, and the bidirectional formatting characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for raw control characters on purpose
const rawControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

interface Entry {
  kind: 'file' | 'folder' | 'link' | 'other';
  mode: number;
  uid: number;
  gid: number;
  content?: string;
}

/** Every entry under `root`, without following links: content (base64), type, mode and owner. */
function snapshot(root: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const visit = (relative: string): void => {
    const full = join(root, relative);
    const stat = lstatSync(full);
    const base = { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid };
    if (stat.isSymbolicLink()) {
      entries.set(relative, { kind: 'link', ...base, content: readlinkSync(full) });
    } else if (stat.isDirectory()) {
      if (relative !== '') entries.set(relative, { kind: 'folder', ...base });
      for (const name of readdirSync(full)) visit(relative === '' ? name : join(relative, name));
    } else if (stat.isFile()) {
      entries.set(relative, { kind: 'file', ...base, content: readFileSync(full).toString('base64') });
    } else {
      entries.set(relative, { kind: 'other', ...base });
    }
  };
  visit('');
  return entries;
}

function describeEntry(entry: Entry | undefined): string {
  if (!entry) return 'absent';
  const content = entry.content === undefined ? '' : ` ${entry.content.length}b64`;
  return `${entry.kind} ${entry.mode.toString(8)} ${entry.uid}:${entry.gid}${content}`;
}

/** What changed under the case's folder that the case did not say it writes or creates. */
function fileProblems(
  before: Map<string, Entry>,
  after: Map<string, Entry>,
  dir: string,
  writes: Array<{ path: string; text: string }>,
  creates: string[],
): string[] {
  const problems: string[] = [];
  const written = new Map(writes.map((write) => [write.path, write.text]));
  for (const [relative, was] of before) {
    const now = after.get(relative);
    const expectedText = written.get(join(dir, relative));
    if (expectedText !== undefined && was.kind === 'file') {
      if (now?.kind !== 'file') problems.push(`${relative}: was written, is now ${describeEntry(now)}`);
      else if (Buffer.from(now.content ?? '', 'base64').toString('utf8') !== expectedText) {
        problems.push(`${relative}: written, but not converted as a whole`);
      } else if (now.mode !== was.mode || now.uid !== was.uid || now.gid !== was.gid) {
        problems.push(`${relative}: written, but ${describeEntry(was)} became ${describeEntry(now)}`);
      }
      continue;
    }
    if (describeEntry(now) !== describeEntry(was) || now?.content !== was.content) {
      problems.push(`${relative}: changed from ${describeEntry(was)} to ${describeEntry(now)}`);
    }
  }
  for (const relative of after.keys()) {
    if (!before.has(relative) && !creates.includes(relative)) problems.push(`${relative}: left behind`);
  }
  for (const relative of creates) if (!after.has(relative)) problems.push(`${relative}: not created`);
  return problems;
}

/** Why a run breaks the sweep's invariants (none when it keeps them all). */
export function runProblems(sweepCase: SweepCase, run: CliRun, context: CaseContext): string[] {
  const problems: string[] = [];
  const { expected } = sweepCase;
  if (run.code === -1) problems.push(`no exit within ${runTimeoutMs} ms (a hang)`);
  else if (run.code === 1) problems.push('exit 1 (internal)');
  else if (!documentedCodes.has(run.code)) problems.push(`exit ${run.code}, not a documented code`);
  else if (typeof expected === 'number' && run.code !== expected) {
    problems.push(`exit ${run.code}, expected ${expected}`);
  } else if (expected === 'bad' && run.code === 0) problems.push('exit 0 on bad input (a silent success)');
  const output = run.stdout + run.stderr;
  if (/^\s+at .+[(:]/m.test(output)) problems.push('a stack trace');
  if (/node:internal|Error: .*\/node_modules\//.test(output)) problems.push('a Node internal error');
  if (/this is a bug|please report it/i.test(run.stderr)) problems.push('reported as a bug');
  // migrate -f prints the converted files themselves on success: a Secret document in them is the user's own.
  const shown = sweepCase.machineStdout && run.code === 0 ? run.stderr : output;
  if (shown.includes(secretMarker)) problems.push('the secret marker was printed');
  if (rawControls.test(run.stderr)) problems.push('a raw control or bidi character on stderr');
  // A diff shows a CRLF file's line ends as they are, as diff does.
  if (!sweepCase.machineStdout && rawControls.test(run.stdout.replaceAll('\r\n', '\n'))) {
    problems.push('a raw control or bidi character on stdout');
  }
  const needed = sweepCase.stderrHas?.(context);
  if (needed !== undefined && !run.stderr.includes(needed))
    problems.push(`stderr lacks ${JSON.stringify(needed)}`);
  return problems;
}

/** Runs one case in a fresh folder and returns what went wrong, each line naming the case. */
export async function runCase(
  sweepCase: SweepCase,
  ports: { closed: number; silent: number },
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-sweep-'));
  chmodSync(dir, 0o777);
  const home = mkdtempSync(join(tmpdir(), 'kubectl-aso-sweep-home-'));
  chmodSync(home, 0o777);
  const context: CaseContext = {
    dir,
    closedPort: ports.closed,
    silentPort: ports.silent,
    file: (name, content, mode = 0o644) => {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      chmodSync(path, mode);
      return path;
    },
    folder: (name, mode = 0o777) => {
      const path = join(dir, name);
      mkdirSync(path, { recursive: true });
      chmodSync(path, mode);
      return path;
    },
  };
  try {
    const args = sweepCase.args(context);
    const env = { KUBECONFIG: '/nonexistent/kubeconfig', HOME: home, ...sweepCase.env?.(context) };
    const before = snapshot(dir);
    const run = await runOnce(sweepCase, args, env);
    const problems = [
      ...runProblems(sweepCase, run, context),
      ...fileProblems(before, snapshot(dir), dir, sweepCase.writes?.(context) ?? [], sweepCase.creates ?? []),
    ];
    const firstLine = JSON.stringify(run.stderr.trim().split('\n')[0]?.slice(0, 200) ?? '');
    return problems.map((problem) => `${sweepCase.name}: ${problem} (exit ${run.code}; stderr ${firstLine})`);
  } finally {
    // Folders made read-only for the run must be writable again to be removed.
    chmodTree(dir);
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

function chmodTree(path: string): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return;
  chmodSync(path, 0o777);
  for (const name of readdirSync(path)) chmodTree(join(path, name));
}

const bin = new URL('../../bin/kubectl-aso', import.meta.url).pathname;

function runOnce(sweepCase: SweepCase, args: string[], env: Record<string, string>): Promise<CliRun> {
  if (sweepCase.signal) return runSignalled(args, env, sweepCase.signal);
  return sweepCase.as === undefined
    ? runCli(args, env, process.execPath, runTimeoutMs)
    : runCliAs(sweepCase.as, args, env, runTimeoutMs);
}

const signalNumbers = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Runs the plugin, signals it after a while, and reports its code as a shell would: a process that dies
 * of signal N exits 128 + N. A run still going `runTimeoutMs` after the signal is killed and reported -1.
 */
async function runSignalled(
  args: string[],
  env: Record<string, string>,
  signal: { name: 'SIGINT' | 'SIGTERM'; afterMs: number },
): Promise<CliRun> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitSignal: NodeJS.Signals | null = null;
  child.on('exit', (_code, name) => {
    exitSignal = name;
  });
  const send = setTimeout(() => child.kill(signal.name), signal.afterMs);
  let killed = false;
  const kill = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, signal.afterMs + runTimeoutMs);
  try {
    const run = await childOutput(child);
    if (killed) return { ...run, code: -1 };
    const byName =
      exitSignal === 'SIGINT' || exitSignal === 'SIGTERM' ? signalNumbers[exitSignal] : undefined;
    return byName === undefined ? run : { ...run, code: 128 + byName };
  } finally {
    clearTimeout(send);
    clearTimeout(kill);
  }
}

export { nobody };
