import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, nobody, runCli, runCliAs } from '../fixtures/cli.ts';

const isRoot = process.geteuid?.() === 0;

const server = `# orders
apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601
kind: FlexibleServer
metadata:
  name: orders-db
spec:
  location: westeurope
  owner:
    name: shop-rg
`;
const converted = server.replace('v1alpha1api20210601', 'v1beta20210601');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-writes-'));
  chmodSync(dir, 0o777);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text = server, mode = 0o644): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

function folder(name: string, mode = 0o777): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  chmodSync(path, mode);
  return path;
}

/** Every name under the test folder, so that a left-behind temporary or partly written file shows. */
function namesUnder(path = dir): string[] {
  return readdirSync(path, { recursive: true, encoding: 'utf8' }).sort();
}

/**
 * Runs the built plugin with no cluster, as root or (`as: nobody`) as an unprivileged user. A run that does
 * not end within `timeoutMs` is killed and reported as code -1.
 */
function migrate(args: string[], options: { as?: number; timeoutMs?: number } = {}): Promise<CliRun> {
  const env = { KUBECONFIG: '/nonexistent/kubeconfig', HOME: dir };
  const argv = ['migrate', '--to', 'v1beta', ...args];
  const timeoutMs = options.timeoutMs ?? 30_000;
  return options.as === undefined
    ? runCli(argv, env, process.execPath, timeoutMs)
    : runCliAs(options.as, argv, env, timeoutMs);
}

describe('kubectl aso migrate -f --write and --output-dir: how files are written (the built plugin)', () => {
  it.runIf(isRoot)(
    'writes every file or none: a file in a read-only folder fails the run (exit 9, naming it) before any other file changes',
    async () => {
      const a = file('a.yaml', server, 0o666);
      const rodir = folder('rodir');
      const b = join(rodir, 'b.yaml');
      writeFileSync(b, server);
      chmodSync(b, 0o666);
      chownSync(a, nobody, nobody);
      chownSync(b, nobody, nobody);
      chmodSync(rodir, 0o555);
      const before = namesUnder();
      const run = await migrate(['-f', a, '-f', b, '--write'], { as: nobody });
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`error: ${b}`);
      expect(run.stderr).not.toContain('this is a bug');
      expect(readFileSync(a, 'utf8')).toBe(server);
      expect(readFileSync(b, 'utf8')).toBe(server);
      expect(namesUnder()).toEqual(before);
    },
  );

  it.runIf(isRoot)(
    '--write in a read-only folder is exit 9 naming the file, and writes nothing',
    async () => {
      const rodir = folder('rodir');
      const b = join(rodir, 'b.yaml');
      writeFileSync(b, server);
      chownSync(b, nobody, nobody);
      chmodSync(rodir, 0o555);
      const run = await migrate(['-f', b, '--write'], { as: nobody });
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`error: ${b}: cannot write a temporary file in ${rodir}`);
      expect(readFileSync(b, 'utf8')).toBe(server);
      expect(namesUnder(rodir)).toEqual(['b.yaml']);
    },
  );

  it('keeps the mode exactly (664, 666, setuid, setgid) and the owner and group', async () => {
    const modes = [0o664, 0o666, 0o4755, 0o2755, 0o600];
    const paths = modes.map((mode, i) => file(`m${i}.yaml`, server, mode));
    if (isRoot) chownSync(paths[0] as string, nobody, nobody);
    const run = await migrate([...paths.flatMap((path) => ['-f', path]), '--write']);
    expect(run.code).toBe(0);
    for (const [i, path] of paths.entries()) {
      expect(readFileSync(path, 'utf8')).toBe(converted);
      expect((statSync(path).mode & 0o7777).toString(8)).toBe((modes[i] as number).toString(8));
    }
    if (isRoot) expect(statSync(paths[0] as string)).toMatchObject({ uid: nobody, gid: nobody });
  });

  it('writes through a symlink, to a file in another folder or by a relative link, and keeps the link', async () => {
    const real = folder('real');
    const target = join(real, 'server.yaml');
    writeFileSync(target, server);
    const other = folder('links');
    const absolute = join(other, 'absolute.yaml');
    symlinkSync(target, absolute);
    const relativeTarget = file('rel-target.yaml');
    const relative = join(dir, 'relative.yaml');
    symlinkSync('rel-target.yaml', relative);
    const run = await migrate(['-f', absolute, '-f', relative, '--write']);
    expect(run.code).toBe(0);
    expect(lstatSync(absolute).isSymbolicLink()).toBe(true);
    expect(readlinkSync(absolute)).toBe(target);
    expect(lstatSync(relative).isSymbolicLink()).toBe(true);
    expect(readlinkSync(relative)).toBe('rel-target.yaml');
    expect(readFileSync(target, 'utf8')).toBe(converted);
    expect(readFileSync(relativeTarget, 'utf8')).toBe(converted);
    expect(namesUnder(other)).toEqual(['absolute.yaml']);
    expect(namesUnder(real)).toEqual(['server.yaml']);
  });

  it.runIf(isRoot)(
    'refuses to replace a file the user cannot write, or whose owner it could not keep (exit 9, naming it)',
    async () => {
      const readOnly = file('readonly.yaml', server, 0o444);
      const run = await migrate(['-f', readOnly, '--write'], { as: nobody });
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`error: ${readOnly}`);
      expect(readFileSync(readOnly, 'utf8')).toBe(server);
      expect(statSync(readOnly)).toMatchObject({ uid: 0, gid: 0 });

      const othersWritable = file('others.yaml', server, 0o666);
      const refused = await migrate(['-f', othersWritable, '--write'], { as: nobody });
      expect(refused.code).toBe(9);
      expect(refused.stderr).toContain(`error: ${othersWritable}`);
      expect(readFileSync(othersWritable, 'utf8')).toBe(server);
      expect(statSync(othersWritable)).toMatchObject({ uid: 0, gid: 0 });
      expect(namesUnder()).toEqual(['others.yaml', 'readonly.yaml']);
    },
  );

  it('--output-dir naming a file, or with a folder where a file goes, is exit 9 and writes nothing', async () => {
    const source = file('db.yaml');
    const notAFolder = file('out', 'a file\n');
    const run = await migrate(['-f', source, '--output-dir', join(notAFolder, 'sub')]);
    expect(run.code).toBe(9);
    expect(run.stderr).toContain(`error: ${notAFolder}`);
    const direct = await migrate(['-f', source, '--output-dir', notAFolder]);
    expect(direct.code).toBe(9);
    expect(direct.stderr).toContain(`error: ${notAFolder}`);
    expect(readFileSync(notAFolder, 'utf8')).toBe('a file\n');
    const proc = await migrate(['-f', source, '--output-dir', '/proc/x/out'], { timeoutMs: 20_000 });
    expect(proc.code).toBe(9);
    expect(proc.stderr).toContain('error: /proc/x');

    const out = folder('converted');
    mkdirSync(join(out, 'db.yaml'));
    const other = file('other.yaml');
    const blocked = await migrate(['-f', other, '-f', source, '--output-dir', out]);
    expect(blocked.code).toBe(9);
    expect(blocked.stderr).toContain(`error: ${join(out, 'db.yaml')}: is a folder`);
    expect(namesUnder(out)).toEqual(['db.yaml']);
  });

  it.runIf(isRoot)('--output-dir under a read-only folder is exit 9 and creates nothing', async () => {
    const source = file('db.yaml');
    const rodir = folder('rodir', 0o555);
    const run = await migrate(['-f', source, '--output-dir', join(rodir, 'out', 'deeper')], { as: nobody });
    expect(run.code).toBe(9);
    expect(run.stderr).toContain(`error: ${join(rodir, 'out')}`);
    expect(namesUnder(rodir)).toEqual([]);
  });

  it('a file given twice with -f is written once, also under --output-dir', async () => {
    const path = file('db.yaml');
    const run = await migrate(['-f', path, '-f', path, '--write']);
    expect(run.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(converted);
    const out = join(dir, 'out');
    const copied = await migrate([
      '-f',
      file('again.yaml'),
      '-f',
      join(dir, 'again.yaml'),
      '--output-dir',
      out,
    ]);
    expect(copied.code).toBe(0);
    expect(readFileSync(join(out, 'again.yaml'), 'utf8')).toBe(converted);
  });
});

describe('kubectl aso migrate (the cluster run): local paths are checked before the cluster is touched', () => {
  it('--backup-dir /proc/x fails at once, exit 9 naming it (no endless mkdir loop)', async () => {
    const run = await migrate(['--backup-dir', '/proc/x'], { timeoutMs: 20_000 });
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('--backup-dir /proc/x');
  });

  it('--state-file in a folder that does not exist is exit 9 naming it, before any cluster access', async () => {
    const run = await migrate(['--state-file', '/nonexistent/d/s.json']);
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('--state-file /nonexistent/d/s.json');
    expect(run.stderr).not.toContain('ENOENT: no such file');
  });
});
