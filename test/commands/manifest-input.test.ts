import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, nobody, runCli, runCliAs } from '../fixtures/cli.ts';

const noCluster = { KUBECONFIG: '/nonexistent/kubeconfig' };

// An old FlexibleServer: `migrate -f --to v1beta` converts it, so a file that is read shows one change.
const server = `apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601
kind: FlexibleServer
metadata:
  name: orders-db
  namespace: shop
spec:
  location: westeurope
  owner:
    name: shop-rg
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-input-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Both commands that read manifests, on the same input: migrate -f (as a diff) and adopt-check. */
async function both(args: string[]): Promise<{ migrate: CliRun; adopt: CliRun }> {
  const [migrate, adopt] = await Promise.all([
    runCli(['migrate', '--to', 'v1beta', '--diff', ...args], noCluster),
    runCli(['adopt-check', ...args], noCluster),
  ]);
  return { migrate, adopt };
}

/** adopt-check stops at the missing kubeconfig (exit 3) only after it has read every manifest. */
const readAll = { code: 3 };

describe('bad -f input, for migrate -f and adopt-check alike (the built plugin, no cluster)', () => {
  it('names a symlink loop under -R (exit 9) and reads a symlinked file or folder that is no loop once', async () => {
    mkdirSync(join(dir, 'tree', 'sub'), { recursive: true });
    file('tree/sub/a.yaml', server);
    file('outside.yaml', server.replace('orders-db', 'other-db'));
    symlinkSync(join(dir, 'tree', 'sub'), join(dir, 'tree', 'linked'));
    symlinkSync(join(dir, 'outside.yaml'), join(dir, 'tree', 'b.yaml'));
    const fine = await both(['-R', '-f', join(dir, 'tree')]);
    expect(fine.migrate.stderr).toContain('2 of 2 ASO objects converted to v1beta in 2 of 2 files');
    expect(fine.adopt).toMatchObject(readAll);

    rmSync(join(dir, 'tree', 'linked'));
    symlinkSync(join(dir, 'tree'), join(dir, 'tree', 'sub', 'up'));
    const loop = await both(['-R', '-f', join(dir, 'tree')]);
    for (const run of [loop.migrate, loop.adopt]) {
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`${join(dir, 'tree', 'sub', 'up')}: symlink loop`);
    }
  });

  it('names a dangling symlink and a FIFO found in a folder (exit 9), instead of a crash or a hang', async () => {
    mkdirSync(join(dir, 'd'));
    symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'd', 'gone.yaml'));
    const dangling = await both(['-f', join(dir, 'd')]);
    for (const run of [dangling.migrate, dangling.adopt]) {
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(
        `${join(dir, 'd', 'gone.yaml')}: dangling symlink to ${join(dir, 'nowhere.yaml')}`,
      );
    }
    rmSync(join(dir, 'd', 'gone.yaml'));
    spawnSync('mkfifo', [join(dir, 'd', 'pipe.yaml')]);
    const fifo = await both(['-f', join(dir, 'd')]);
    for (const run of [fifo.migrate, fifo.adopt]) {
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`${join(dir, 'd', 'pipe.yaml')}: not a regular file`);
    }
  }, 20_000);

  it('names an unreadable file (EACCES) with exit 9, run as a user who may not read it', async () => {
    const path = file('secret.yaml', server);
    chmodSync(path, 0o000);
    chmodSync(dir, 0o755);
    const args = ['-f', path];
    const runs = await Promise.all([
      runAsNobody(['migrate', '--to', 'v1beta', '--diff', ...args]),
      runAsNobody(['adopt-check', ...args]),
    ]);
    for (const run of runs) {
      expect(run.stderr).not.toContain('this is a bug');
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`error: ${path}: permission denied`);
    }
  });

  it('names file and line of an alias to an anchor in another document', async () => {
    const path = file(
      'alias.yaml',
      `${server.replace('location: westeurope', 'location: &region westeurope')}---\n${server.replace('orders-db', 'b').replace('location: westeurope', 'location: *region')}`,
    );
    const { migrate, adopt } = await both(['-f', path]);
    for (const run of [migrate, adopt]) {
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(
        `error: ${path}:17: document 2: alias *region has no anchor before it in this document`,
      );
    }
  });

  it('refuses an alias bomb as bad input (exit 9) naming file and document', async () => {
    let bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (const [previous, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg', 'gh', 'hi']) {
      bomb += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
    }
    const path = file('bomb.yaml', `${server}---\n${bomb}`);
    const { migrate, adopt } = await both(['-f', path]);
    for (const run of [migrate, adopt]) {
      expect(run.code).toBe(9);
      expect(run.stderr).toContain(`error: ${path}:11: document 2: too many aliases`);
    }
  });

  it('reads UTF-16 (LE and BE) and UTF-8 files with a byte order mark', async () => {
    for (const [name, bytes] of [
      ['le.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(server, 'utf16le')])],
      ['be.yaml', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(server, 'utf16le').swap16()])],
      ['bom8.yaml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(server)])],
    ] as const) {
      const { migrate, adopt } = await both(['-f', file(name, bytes)]);
      expect(migrate.stderr).toContain('1 of 1 ASO objects converted to v1beta in 1 of 1 files');
      expect(migrate.code).toBe(23);
      expect(adopt).toMatchObject(readAll);
    }
  });

  it('refuses --write on a UTF-16 file that would change (exit 9), leaving it as it was', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(server, 'utf16le')]);
    const path = file('le.yaml', bytes);
    const run = await runCli(['migrate', '--to', 'v1beta', '-f', path, '--write'], noCluster);
    expect(run.code).toBe(9);
    expect(run.stderr).toContain(`error: ${path}: --write would re-encode this UTF-16LE file as UTF-8`);
    expect(readFileSync(path)).toEqual(bytes);
  });

  it('refuses documents that are not objects (a string, a list, a number) naming file, line and document', async () => {
    for (const [text, line] of [
      ['hello\n', 3],
      ['- a\n- b\n', 3],
      ['42\n', 3],
    ] as const) {
      const path = file('odd.yaml', `# comment\n---\n${text}`);
      const { migrate, adopt } = await both(['-f', path]);
      for (const run of [migrate, adopt]) {
        expect(run.code).toBe(9);
        expect(run.stderr).toContain(`error: ${path}:${line}: document 1 is not an object`);
      }
    }
    const empty = file('empty.yaml', `# only a comment\n---\n---\n${server}`);
    const fine = await both(['-f', empty]);
    expect(fine.migrate.code).toBe(23);
    expect(fine.adopt).toMatchObject(readAll);
  });

  it('names file, line and object of a value of the wrong type', async () => {
    const specString = file('spec.yaml', server.replace(/spec:[\s\S]*$/, 'spec: "str"\n'));
    const locationNumber = file('location.yaml', server.replace('location: westeurope', 'location: 42'));
    for (const [path, line, problem] of [
      [specString, 6, 'spec: expected an object, found a string (3 characters)'],
      [locationNumber, 7, 'spec.location: expected a string, found a number'],
    ] as const) {
      const { migrate, adopt } = await both(['-f', path]);
      for (const run of [migrate, adopt]) {
        expect(run.code).toBe(9);
        expect(run.stderr).toContain(
          `error: ${path}:${line}: document 1, FlexibleServer/orders-db (namespace shop): ${problem}`,
        );
      }
    }
  });

  it('refuses an object with no usable apiVersion or kind, or an ASO object with no name, in both commands alike', async () => {
    for (const [text, problem] of [
      [server.replace(/^apiVersion: .*\n/, ''), 'object orders-db has no apiVersion'],
      [server.replace(/^kind: .*\n/m, ''), 'object orders-db has no kind'],
      [server.replace('kind: FlexibleServer', 'kind: [FlexibleServer]'), 'object orders-db has no kind'],
      [server.replace(/^apiVersion: .*$/m, 'apiVersion: 42'), 'object orders-db has no apiVersion'],
      [server.replace('kind: FlexibleServer', 'kind: ""'), 'object orders-db has no kind'],
      [server.replace('name: orders-db', 'name: ""'), 'FlexibleServer object has no metadata.name'],
      [
        server.replace('metadata:\n  name: orders-db\n  namespace: shop\n', ''),
        'FlexibleServer object has no metadata.name',
      ],
    ] as const) {
      const path = file('head.yaml', text);
      const { migrate, adopt } = await both(['-f', path]);
      for (const run of [migrate, adopt]) {
        expect({ code: run.code, text }).toEqual({ code: 9, text });
        expect(run.stderr).toContain(`error: ${path}:`);
        expect(run.stderr).toContain(problem);
      }
    }
  });

  it('refuses stdin given twice (-f - -f -) as a usage error naming -', async () => {
    const { migrate, adopt } = await both(['-f', '-', '-f', '-']);
    for (const run of [migrate, adopt]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('-f - is given twice');
    }
  });
});

/** Runs the built plugin as nobody, with its own writable home: as root every file is readable. */
function runAsNobody(args: string[]): Promise<CliRun> {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true, mode: 0o777 });
  chmodSync(home, 0o777);
  return runCliAs(nobody, args, { ...noCluster, HOME: home });
}
