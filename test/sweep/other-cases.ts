import { spawnSync } from 'node:child_process';
import { chownSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CaseContext, type Expected, nobody, type SweepCase, secretMarker } from './harness.ts';
import { convertedText, server } from './manifest-cases.ts';

const isRoot = process.geteuid?.() === 0;
const guid = '00000000-0000-0000-0000-0000000000aa';

const migrateFile = (file: string, ...extra: string[]): string[] => [
  'migrate',
  '--to',
  'v1beta',
  '-f',
  file,
  ...extra,
];

/** Files, folders, links and permissions around -f, --write, --output-dir, --backup-dir and --state-file. */
export function fileSystemCases(): SweepCase[] {
  const cases: SweepCase[] = [];
  for (const [label, command] of [
    ['migrate -f --diff', (file: string) => migrateFile(file, '--diff')],
    ['adopt-check -f', (file: string) => ['adopt-check', '-f', file]],
  ] as const) {
    cases.push(
      {
        name: `files: a missing file: ${label}`,
        args: (c) => command(join(c.dir, 'missing.yaml')),
        expected: 9,
        stderrHas: (c) => `error: ${join(c.dir, 'missing.yaml')}`,
      },
      {
        name: `files: a path through a file: ${label}`,
        args: (c) => command(join(c.file('plain.yaml', server), 'x.yaml')),
        expected: 9,
      },
      {
        name: `files: an empty -f value: ${label}`,
        args: () => command(''),
        expected: 'bad',
      },
      {
        name: `files: a folder of subfolders without -R: ${label}`,
        args: (c) => {
          c.folder('tree/sub');
          c.file('tree/sub/a.yaml', server);
          return command(join(c.dir, 'tree'));
        },
        expected: 'bad',
      },
      {
        name: `files: an empty folder: ${label}`,
        args: (c) => command(c.folder('empty')),
        expected: 'bad',
      },
      {
        name: `files: a folder of text files only: ${label}`,
        args: (c) => {
          c.file('docs/readme.txt', 'hello\n');
          return command(join(c.dir, 'docs'));
        },
        expected: 'bad',
      },
      {
        name: `files: a symlink loop under -R: ${label}`,
        args: (c) => {
          c.folder('tree/sub');
          c.file('tree/sub/a.yaml', server);
          symlinkSync(join(c.dir, 'tree'), join(c.dir, 'tree', 'sub', 'up'));
          return [...command(join(c.dir, 'tree')), '-R'];
        },
        expected: 9,
        stderrHas: (c) => `${join(c.dir, 'tree', 'sub', 'up')}: symlink loop`,
      },
      {
        name: `files: a file symlinked to itself: ${label}`,
        args: (c) => {
          symlinkSync(join(c.dir, 'self.yaml'), join(c.dir, 'self.yaml'));
          return command(join(c.dir, 'self.yaml'));
        },
        expected: 9,
      },
      {
        name: `files: a dangling symlink in a folder: ${label}`,
        args: (c) => {
          c.folder('d');
          symlinkSync(join(c.dir, 'nowhere.yaml'), join(c.dir, 'd', 'gone.yaml'));
          return command(join(c.dir, 'd'));
        },
        expected: 9,
      },
      {
        name: `files: a FIFO in a folder: ${label}`,
        args: (c) => {
          c.folder('d');
          spawnSync('mkfifo', [join(c.dir, 'd', 'pipe.yaml')]);
          return command(join(c.dir, 'd'));
        },
        expected: 9,
      },
      {
        name: `files: a FIFO named directly: ${label}`,
        args: (c) => {
          spawnSync('mkfifo', [join(c.dir, 'pipe.yaml')]);
          return command(join(c.dir, 'pipe.yaml'));
        },
        expected: 9,
      },
      {
        name: `files: /dev/zero: ${label}`,
        args: () => command('/dev/zero'),
        expected: 9,
      },
      {
        name: `files: stdin twice: ${label}`,
        args: () => [...command('-'), '-f', '-'],
        expected: 2,
        stderrHas: () => '-f - is given twice',
      },
      {
        name: `files: an unreadable file, as nobody: ${label}`,
        args: (c) => command(c.file('secret.yaml', server, 0o000)),
        as: nobody,
        expected: isRoot ? 9 : 'bad',
        stderrHas: (c) => `${join(c.dir, 'secret.yaml')}: permission denied`,
      },
      {
        name: `files: an unreadable folder, as nobody: ${label}`,
        args: (c) => {
          c.file('locked/a.yaml', server);
          return command(c.folder('locked', 0o000));
        },
        as: nobody,
        expected: isRoot ? 9 : 'bad',
      },
      {
        name: `files: a name with newline, ESC and U+202E: ${label}`,
        args: (c) => command(c.file('a\nb\u001b[31m\u202e.yaml', server)),
        expected: label === 'adopt-check -f' ? 3 : 23,
      },
      {
        name: `files: a bad file named with ESC and U+202E: ${label}`,
        args: (c) => command(c.file('bad\u202e\u001b[2J.yaml', 'a: [\n')),
        expected: 9,
      },
    );
  }
  const writable = (c: CaseContext, name: string, mode = 0o644): string => {
    const path = c.file(name, server, mode);
    if (isRoot) chownSync(path, nobody, nobody);
    return path;
  };
  cases.push(
    {
      name: 'files: --write with a file in a read-only folder, as nobody: all or none',
      args: (c) => {
        const a = writable(c, 'a.yaml');
        const b = writable(c, 'ro/b.yaml');
        c.folder('ro', 0o555);
        return migrateFile(a, '-f', b, '--write');
      },
      as: nobody,
      expected: 9,
    },
    {
      name: 'files: --write on a root-owned 444 file, as nobody',
      args: (c) => migrateFile(c.file('ro.yaml', server, 0o444), '--write'),
      as: nobody,
      expected: 9,
    },
    {
      name: 'files: --write on a root-owned 666 file, as nobody',
      args: (c) => migrateFile(c.file('others.yaml', server, 0o666), '--write'),
      as: nobody,
      expected: 9,
    },
    {
      name: 'files: --write through a symlink keeps the link',
      args: (c) => {
        c.file('real.yaml', server);
        symlinkSync('real.yaml', join(c.dir, 'link.yaml'));
        return migrateFile(join(c.dir, 'link.yaml'), '--write');
      },
      expected: 0,
      writes: (c) => [{ path: join(c.dir, 'real.yaml'), text: convertedText(server) }],
    },
    ...[0o600, 0o664, 0o666, 0o4755, 0o2755].map(
      (mode): SweepCase => ({
        name: `files: --write keeps mode ${mode.toString(8)}`,
        args: (c) => migrateFile(c.file('m.yaml', server, mode), '--write'),
        expected: 0,
        writes: (c) => [{ path: join(c.dir, 'm.yaml'), text: convertedText(server) }],
      }),
    ),
    {
      name: 'files: --write of one file given twice',
      args: (c) => {
        const path = c.file('twice.yaml', server);
        return migrateFile(path, '-f', path, '--write');
      },
      expected: 0,
      writes: (c) => [{ path: join(c.dir, 'twice.yaml'), text: convertedText(server) }],
    },
    {
      name: 'files: --write of stdin',
      args: () => migrateFile('-', '--write'),
      expected: 'bad',
    },
    {
      name: 'files: --write with --diff (writes, and shows what it wrote)',
      args: (c) => migrateFile(c.file('a.yaml', server), '--write', '--diff'),
      expected: 23,
      writes: (c) => [{ path: join(c.dir, 'a.yaml'), text: convertedText(server) }],
    },
    {
      name: 'files: --write with --output-dir',
      args: (c) => migrateFile(c.file('a.yaml', server), '--write', '--output-dir', join(c.dir, 'out')),
      expected: 2,
    },
    {
      name: 'files: --output-dir in a read-only folder, as nobody',
      args: (c) => {
        const source = writable(c, 'db.yaml');
        return migrateFile(source, '--output-dir', join(c.folder('ro', 0o555), 'out', 'deeper'));
      },
      as: nobody,
      expected: 9,
    },
    {
      name: 'files: --output-dir naming a file',
      args: (c) => migrateFile(c.file('db.yaml', server), '--output-dir', c.file('out', 'a file\n')),
      expected: 9,
    },
    {
      name: 'files: --output-dir under a file',
      args: (c) =>
        migrateFile(c.file('db.yaml', server), '--output-dir', join(c.file('out', 'a file\n'), 'sub')),
      expected: 9,
    },
    {
      name: 'files: --output-dir /proc/x/out',
      args: (c) => migrateFile(c.file('db.yaml', server), '--output-dir', '/proc/x/out'),
      expected: 9,
    },
    {
      name: 'files: --output-dir with a folder where the file goes',
      args: (c) => {
        c.folder('out/db.yaml');
        return migrateFile(c.file('db.yaml', server), '--output-dir', join(c.dir, 'out'));
      },
      expected: 9,
    },
    {
      name: 'files: --output-dir that is fine',
      args: (c) => migrateFile(c.file('db.yaml', server), '--output-dir', join(c.dir, 'out')),
      expected: 0,
      creates: ['out', 'out/db.yaml'],
    },
    {
      name: 'files: --backup-dir /proc/x',
      args: () => ['migrate', '--to', 'v1beta', '--backup-dir', '/proc/x'],
      expected: 9,
      stderrHas: () => '--backup-dir /proc/x',
    },
    {
      name: 'files: --backup-dir naming a file',
      args: (c) => ['migrate', '--to', 'v1beta', '--backup-dir', c.file('backup', 'x\n')],
      expected: 9,
    },
    {
      name: 'files: --backup-dir in a read-only folder, as nobody',
      args: (c) => ['migrate', '--to', 'v1beta', '--backup-dir', join(c.folder('ro', 0o555), 'b')],
      as: nobody,
      expected: isRoot ? 9 : 'bad',
    },
    {
      name: 'files: --state-file in a missing folder',
      args: () => ['migrate', '--to', 'v1beta', '--state-file', '/nonexistent/d/s.json'],
      expected: 9,
      stderrHas: () => '--state-file /nonexistent/d/s.json',
    },
    {
      name: 'files: --state-file naming a folder',
      args: (c) => ['migrate', '--to', 'v1beta', '--state-file', c.folder('state')],
      expected: 9,
    },
    {
      name: 'files: --state-file under /proc',
      args: () => ['migrate', '--to', 'v1beta', '--state-file', '/proc/x/s.json'],
      expected: 9,
    },
    {
      name: 'files: --state-file holding junk',
      args: (c) => ['migrate', '--to', 'v1beta', '--state-file', c.file('s.json', '{not json')],
      expected: 'bad',
    },
  );
  return cases;
}

/** Flag values each command refuses, or combinations it must not take silently. */
export function flagCases(): SweepCase[] {
  const cases: Array<[string, (c: CaseContext) => string[], SweepCase['expected']]> = [
    ['status --json -o yaml', () => ['status', '--json', '-o', 'yaml'], 2],
    ['migrate --json -o yaml', () => ['migrate', '--to', 'latest', '--json', '-o', 'yaml'], 2],
    ['migrate -f --json -o yaml', (c) => migrateFile(c.file('a.yaml', server), '--json', '-o', 'yaml'), 2],
    ['adopt-check --json', (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--json'], 2],
    ['status -o bogus', () => ['status', '-o', 'bogus'], 2],
    ['status -o ""', () => ['status', '-o', ''], 2],
    ['migrate --to bogus -f', (c) => ['migrate', '--to', 'bogus', '-f', c.file('a.yaml', server)], 2],
    ['migrate --to "" -f', (c) => ['migrate', '--to', '', '-f', c.file('a.yaml', server)], 2],
    ['migrate --to v9 -f', (c) => ['migrate', '--to', 'v9', '-f', c.file('a.yaml', server)], 2],
    [
      'migrate --to with ESC and U+202E -f',
      (c) => ['migrate', '--to', 'v\u001b[31m\u202e', '-f', c.file('a.yaml', server)],
      2,
    ],
    ['migrate --to bogus (cluster)', () => ['migrate', '--to', 'bogus'], 2],
    ['migrate -f without --to', (c) => ['migrate', '-f', c.file('a.yaml', server)], 'documented'],
    ['migrate --diff without -f', () => ['migrate', '--to', 'v1beta', '--diff'], 2],
    ['migrate --write without -f', () => ['migrate', '--to', 'v1beta', '--write'], 2],
    [
      'migrate --output-dir without -f',
      (c) => ['migrate', '--to', 'v1beta', '--output-dir', join(c.dir, 'o')],
      2,
    ],
    ['migrate --allow-loss without -f', () => ['migrate', '--to', 'v1beta', '--allow-loss'], 2],
    ['migrate -R without -f', () => ['migrate', '--to', 'v1beta', '-R'], 2],
    ['migrate --restore with --kind', () => ['migrate', '--restore', '--kind', 'ResourceGroup'], 2],
    [
      'migrate -f with --kind',
      (c) => [...migrateFile(c.file('a.yaml', server)), '--kind', 'FlexibleServer'],
      2,
    ],
    ['migrate -f with --dry-run', (c) => [...migrateFile(c.file('a.yaml', server)), '--dry-run'], 2],
    ['migrate --strategy bogus', () => ['migrate', '--to', 'latest', '--strategy', 'bogus'], 2],
    ['migrate --dry-run=bogus', () => ['migrate', '--to', 'latest', '--dry-run=bogus'], 2],
    ['migrate --kind ""', () => ['migrate', '--to', 'latest', '--kind', ''], 2],
    [
      'migrate --kind with ESC and U+202E',
      () => ['migrate', '--to', 'latest', '--kind', 'x\u001b[2J\u202e'],
      'bad',
    ],
    ['status --kind ""', () => ['status', '--kind', ''], 2],
    ['status --kind with a newline', () => ['status', '--kind', 'a\nb'], 'bad'],
    ['status --state bogus', () => ['status', '--state', 'bogus'], 2],
    ['status --state ""', () => ['status', '--state', ''], 2],
    ['status --fail-on bogus', () => ['status', '--fail-on', 'bogus'], 2],
    ['status --sort bogus', () => ['status', '--sort', 'bogus'], 2],
    ['status -n ""', () => ['status', '-n', ''], 2],
    ['status -n with ESC', () => ['status', '-n', 'a\u001b[2J'], 'bad'],
    ['status -l a=b=c', () => ['status', '-l', 'a=b=c'], 'bad'],
    ['status -l "!"', () => ['status', '-l', '!'], 'bad'],
    ['status --not-ready --state ready', () => ['status', '--not-ready', '--state', 'ready'], 2],
    ['status --watch --wait', () => ['status', '--watch', '--wait'], 2],
    ['status --timeout without --wait', () => ['status', '--timeout', '5s'], 'documented'],
    ['status --wait --timeout soon', () => ['status', '--wait', '--timeout', 'soon'], 2],
    ['status --wait --timeout -1s', () => ['status', '--wait', '--timeout', '-1s'], 2],
    ['status --wait --timeout 99999999999h', () => ['status', '--wait', '--timeout', '99999999999h'], 2],
    ['status --chunk-size 0', () => ['status', '--chunk-size', '0'], 2],
    ['status --chunk-size -5', () => ['status', '--chunk-size', '-5'], 2],
    ['status --chunk-size 1e12', () => ['status', '--chunk-size', '1e12'], 2],
    ['status --chunk-size 99999999999999999999', () => ['status', '--chunk-size', '99999999999999999999'], 2],
    ['status --request-timeout -1s', () => ['status', '--request-timeout', '-1s'], 2],
    ['status --request-timeout 1x', () => ['status', '--request-timeout', '1x'], 2],
    ['migrate --batch-size 0', () => ['migrate', '--to', 'latest', '--batch-size', '0'], 2],
    ['migrate --batch-size -1', () => ['migrate', '--to', 'latest', '--batch-size', '-1'], 2],
    ['migrate --batch-size 1.5', () => ['migrate', '--to', 'latest', '--batch-size', '1.5'], 2],
    [
      'migrate --batch-size 99999999999999999999',
      () => ['migrate', '--to', 'latest', '--batch-size', '99999999999999999999'],
      2,
    ],
    ['migrate --concurrency 0', () => ['migrate', '--to', 'latest', '--concurrency', '0'], 2],
    ['migrate --concurrency -3', () => ['migrate', '--to', 'latest', '--concurrency', '-3'], 2],
    ['migrate --concurrency 1e9', () => ['migrate', '--to', 'latest', '--concurrency', '1e9'], 2],
    [
      'adopt-check --concurrency 0',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--concurrency', '0'],
      2,
    ],
    [
      'adopt-check --concurrency -1',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--concurrency', '-1'],
      2,
    ],
    [
      'adopt-check --retry-deadline -1',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--retry-deadline', '-1'],
      2,
    ],
    [
      'adopt-check --retry-deadline abc',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--retry-deadline', 'abc'],
      2,
    ],
    [
      'adopt-check --retry-deadline 1e100',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--retry-deadline', '1e100'],
      2,
    ],
    [
      'adopt-check --credential bogus',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--credential', 'bogus'],
      2,
    ],
    [
      'adopt-check --fail-on bogus',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--fail-on', 'bogus'],
      2,
    ],
    ['adopt-check without -f', () => ['adopt-check'], 2],
    [
      'adopt-check --operator-namespace ""',
      (c) => ['adopt-check', '-f', c.file('a.yaml', server), '--operator-namespace', ''],
      'bad',
    ],
    ...[
      '../../x?y#z',
      'abc',
      '',
      '{00000000-0000-0000-0000-0000000000aa}',
      '00000000-0000-0000-0000-0000000000aa/../x',
      '00000000000000000000000000000000aa',
      `${guid}\u202e`,
      '%2e%2e%2fx',
    ].map((subscription): [string, (c: CaseContext) => string[], SweepCase['expected']] => [
      `adopt-check --subscription ${JSON.stringify(subscription)}`,
      (c) => [
        'adopt-check',
        '-f',
        c.file('a.yaml', server),
        '--credential',
        'local',
        '--subscription',
        subscription,
      ],
      2,
    ]),
    ['unknown flag', () => ['status', '--nope'], 2],
    ['unknown command', () => ['statsu'], 2],
    ['an extra argument', () => ['status', 'extra'], 2],
    ['migrate with no --to', () => ['migrate'], 'bad'],
  ];
  return cases.map(([name, args, expected]) => ({ name: `flags: ${name}`, args, expected }));
}

/** A kubeconfig with one context, cluster and user, the pieces given. */
function kubeconfig(cluster: string, user: string, extra = ''): string {
  return `apiVersion: v1
kind: Config
current-context: c
contexts:
- name: c
  context: {cluster: k, user: me}
clusters:
- name: k
  cluster: ${cluster}
users:
- name: me
  user: ${user}
${extra}`;
}

/** Kubeconfigs that cannot be used, for every command that talks to a cluster. */
export function kubeconfigCases(): SweepCase[] {
  const closed = (c: CaseContext): string => `{server: "https://127.0.0.1:${c.closedPort}"}`;
  const token = `{token: "${secretMarker}"}`;
  const configs: Array<[string, (c: CaseContext) => string | Buffer, Expected]> = [
    ['empty file', () => '', 3],
    ['malformed YAML', () => 'clusters: [\n', 3],
    ['binary junk', () => Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x1b, 0x5b]), 3],
    ['a YAML list', () => '- a\n- b\n', 3],
    ['a string', () => 'hello\n', 3],
    ['no current context', (c) => kubeconfig(closed(c), token).replace('current-context: c\n', ''), 3],
    [
      'a current context that is missing',
      (c) => kubeconfig(closed(c), token).replace('current-context: c', 'current-context: gone'),
      3,
    ],
    [
      'a context naming a missing cluster',
      (c) => kubeconfig(closed(c), token).replace('cluster: k, user', 'cluster: nope, user'),
      3,
    ],
    [
      'a context naming a missing user',
      (c) => kubeconfig(closed(c), token).replace('user: me}', 'user: nobody}'),
      3,
    ],
    [
      'clusters is a string',
      (c) =>
        kubeconfig(closed(c), token).replace(/clusters:\n- name: k\n {2}cluster: .*\n/, 'clusters: "x"\n'),
      3,
    ],
    ['no server', () => kubeconfig('{}', token), 3],
    ['a server that is no URL', () => kubeconfig('{server: "not a url"}', token), 3],
    ['a server with ESC and U+202E', () => kubeconfig('{server: "https://\\e[2J\u202e:1"}', token), 'bad'],
    ['an unreachable server (closed loopback port)', (c) => kubeconfig(closed(c), token), 4],
    [
      'an unreachable server over http',
      (c) => kubeconfig(`{server: "http://127.0.0.1:${c.closedPort}"}`, token),
      4,
    ],
    [
      'an unreachable server on IPv6 loopback',
      (c) => kubeconfig(`{server: "https://[::1]:${c.closedPort}"}`, token),
      4,
    ],
    [
      'a missing exec plugin',
      (c) =>
        kubeconfig(
          closed(c),
          '{exec: {apiVersion: client.authentication.k8s.io/v1, command: no-such-credential-plugin-24}}',
        ),
      3,
    ],
    [
      'an exec plugin that fails',
      (c) => kubeconfig(closed(c), '{exec: {apiVersion: client.authentication.k8s.io/v1, command: "false"}}'),
      3,
    ],
    [
      'an exec plugin printing junk',
      (c) =>
        kubeconfig(
          closed(c),
          '{exec: {apiVersion: client.authentication.k8s.io/v1, command: "echo", args: ["not json"]}}',
        ),
      3,
    ],
    ['a missing tokenFile', (c) => kubeconfig(closed(c), '{tokenFile: /nonexistent/token}'), 3],
    [
      "another user's missing tokenFile",
      (c) => kubeconfig(closed(c), token, '- name: other\n  user: {tokenFile: /nonexistent/other-token}\n'),
      4,
    ],
    [
      'bad CA data',
      (c) =>
        kubeconfig(
          `{server: "https://127.0.0.1:${c.closedPort}", certificate-authority-data: "!!notbase64"}`,
          token,
        ),
      3,
    ],
    [
      'CA data that is no certificate',
      (c) =>
        kubeconfig(
          `{server: "https://127.0.0.1:${c.closedPort}", certificate-authority-data: "aGVsbG8="}`,
          token,
        ),
      3,
    ],
    [
      'a missing CA file',
      (c) =>
        kubeconfig(
          `{server: "https://127.0.0.1:${c.closedPort}", certificate-authority: /nonexistent/ca.crt}`,
          token,
        ),
      3,
    ],
    [
      'a missing client certificate file',
      (c) =>
        kubeconfig(closed(c), '{client-certificate: /nonexistent/c.crt, client-key: /nonexistent/c.key}'),
      3,
    ],
    [
      'client key data that is a secret but no key',
      (c) =>
        kubeconfig(
          closed(c),
          `{client-certificate-data: "aGVsbG8=", client-key-data: "${Buffer.from(secretMarker).toString('base64')}"}`,
        ),
      3,
    ],
    [
      'a basic-auth password',
      (c) => kubeconfig(closed(c), `{username: admin, password: "${secretMarker}"}`),
      4,
    ],
    [
      'a bad proxy URL',
      (c) => kubeconfig(`{server: "https://127.0.0.1:${c.closedPort}", proxy-url: "::nope"}`, token),
      3,
    ],
  ];
  const commands: Array<[string, string[]]> = [
    ['status', ['status']],
    ['migrate', ['migrate', '--to', 'latest', '--dry-run']],
  ];
  const cases: SweepCase[] = [];
  for (const [label, content, code] of configs) {
    for (const [command, args] of commands) {
      cases.push({
        name: `kubeconfig: ${label}: ${command}`,
        args: (c) => {
          c.file('config', content(c));
          return args;
        },
        env: (c) => ({ KUBECONFIG: join(c.dir, 'config') }),
        expected: code,
      });
    }
  }
  cases.push(
    {
      name: 'kubeconfig: missing file: status',
      args: () => ['status'],
      expected: 3,
    },
    {
      name: 'kubeconfig: missing file: migrate',
      args: () => ['migrate', '--to', 'latest'],
      expected: 3,
    },
    {
      name: 'kubeconfig: a folder: status',
      args: (c) => ['status', '--kubeconfig', c.folder('kube')],
      expected: 3,
    },
    {
      name: 'kubeconfig: unreadable, as nobody: status',
      args: (c) => [
        'status',
        '--kubeconfig',
        c.file('config', kubeconfig(`{server: "https://127.0.0.1:${c.closedPort}"}`, '{token: t}'), 0o000),
      ],
      as: nobody,
      expected: 3,
    },
    {
      name: 'kubeconfig: an unknown --context with U+202E: status',
      args: (c) => {
        c.file('config', kubeconfig(`{server: "https://127.0.0.1:${c.closedPort}"}`, '{token: t}'));
        return ['status', '--kubeconfig', join(c.dir, 'config'), '--context', 'nope\u202e\u001b[2J'];
      },
      expected: 3,
    },
    {
      name: 'kubeconfig: an unreachable server: adopt-check',
      args: (c) => {
        c.file(
          'config',
          kubeconfig(`{server: "https://127.0.0.1:${c.closedPort}"}`, `{token: "${secretMarker}"}`),
        );
        return ['adopt-check', '-f', c.file('a.yaml', server), '--kubeconfig', join(c.dir, 'config')];
      },
      expected: 4,
    },
    {
      name: 'kubeconfig: a missing exec plugin: adopt-check',
      args: (c) => {
        c.file(
          'config',
          kubeconfig(
            `{server: "https://127.0.0.1:${c.closedPort}"}`,
            '{exec: {apiVersion: client.authentication.k8s.io/v1, command: no-such-plugin}}',
          ),
        );
        return ['adopt-check', '-f', c.file('a.yaml', server), '--kubeconfig', join(c.dir, 'config')];
      },
      expected: 3,
    },
  );
  return cases;
}

/** Runs that wait on a server that never answers, stopped by a signal: the shell's 128 + N, never a hang. */
export function signalCases(): SweepCase[] {
  const silentKubeconfig = (c: CaseContext): Record<string, string> => {
    const path = join(c.dir, 'config');
    writeFileSync(
      path,
      kubeconfig(`{server: "https://127.0.0.1:${c.silentPort}"}`, `{token: "${secretMarker}"}`),
    );
    return { KUBECONFIG: path };
  };
  const runs: Array<[string, string[]]> = [
    ['status', ['status']],
    ['status --watch', ['status', '--watch']],
    ['status --wait', ['status', '--wait', '--timeout', '10m']],
    ['migrate', ['migrate', '--to', 'latest']],
  ];
  const cases: SweepCase[] = [];
  for (const [label, args] of runs) {
    for (const [name, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      cases.push({
        name: `signal: ${name} to ${label} waiting on a silent server`,
        args: () => args,
        env: silentKubeconfig,
        expected: code,
        signal: { name, afterMs: 1500 },
      });
    }
  }
  return cases;
}
