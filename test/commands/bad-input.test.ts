import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli.ts';

// Bad input from the issue-24 sweep, each through the built plugin as a user would meet it.
const noCluster = { KUBECONFIG: '/nonexistent/kubeconfig' };
const password = 'Hunter2-Correct-Horse-Battery!';
const guid = '00000000-0000-0000-0000-0000000000aa';
const rlo = '\u202e';
const bidiControls = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

function scratch(): string {
  return mkdtempSync(path.join(tmpdir(), 'bad-input-'));
}

/** A FlexibleServer whose password is given inline, where the operator expects a secret reference. */
const inlinePassword = `apiVersion: dbforpostgresql.azure.com/v1api20210601
kind: FlexibleServer
metadata:
  name: pg
  namespace: default
spec:
  location: westus
  owner:
    name: rg
  administratorLogin: admin
  administratorLoginPassword: "${password}"
`;

const convertible = `apiVersion: dbforpostgresql.azure.com/v1api20210601
kind: FlexibleServer
metadata:
  name: pg
  namespace: default
spec:
  location: westus
  owner:
    name: rg
  version: "13"
`;

describe('a secret value given inline is never printed', () => {
  it.each([[[]], [['--diff']], [['--write']], [['-o', 'json']], [['--json']], [['-o', 'yaml']]])(
    'migrate -f %j names the property and the problem, not the value',
    async (extra) => {
      const file = path.join(scratch(), 'pw.yaml');
      writeFileSync(file, inlinePassword);
      const run = await runCli(['migrate', '--to', 'latest', '-f', file, ...extra], noCluster);
      expect(run.stdout + run.stderr).not.toContain(password);
      expect(run.stdout + run.stderr).not.toContain('Hunter2');
      // A value of the wrong type in a manifest is bad input (exit 9), named by file, line and object.
      expect(run.code).toBe(9);
      expect(run.stdout + run.stderr).toContain('spec.administratorLoginPassword');
      expect(readFileSync(file, 'utf8')).toBe(inlinePassword);
    },
  );

  it('adopt-check (table, wide, json) refuses it as bad input and never prints it', async () => {
    const file = path.join(scratch(), 'pw.yaml');
    writeFileSync(file, inlinePassword);
    for (const output of ['table', 'wide', 'json']) {
      const run = await runCli(
        ['adopt-check', '-f', file, '--credential', 'local', '--subscription', guid, '-o', output],
        noCluster,
      );
      expect(run.stdout + run.stderr, output).not.toContain(password);
      // A string where the operator's type holds a secret reference is bad input, as for migrate -f and
      // as the API server would refuse it, named before any cluster or Azure access.
      expect(run.code, run.stderr).toBe(9);
      expect(run.stderr).toContain('spec.administratorLoginPassword: expected an object, found a string');
    }
  });
});

describe('adopt-check --subscription', () => {
  it('refuses a subscription that is not a GUID as a usage error, before any request', async () => {
    const file = path.join(scratch(), 'ok.yaml');
    writeFileSync(file, convertible);
    const run = await runCli(
      ['adopt-check', '-f', file, '--credential', 'local', '--subscription', '../../x?y#z'],
      noCluster,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--subscription.*GUID/);
    expect(run.stdout).toBe('');
  });
});

describe("adopt-check -v is --verbose, as its --help says; kubectl's -v=N still works", () => {
  it('takes a bare -v as --verbose and names the objects passed over', async () => {
    const file = path.join(scratch(), 'mixed.yaml');
    writeFileSync(file, `${convertible}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\n`);
    const args = ['adopt-check', '-f', file, '--credential', 'local', '--subscription', guid];
    const short = await runCli([...args.slice(0, 1), '-v', ...args.slice(1)], noCluster);
    expect(short.stderr).not.toContain('log level');
    expect(short.code, short.stderr).toBe(10);
    expect(short.stdout).toContain('passed over: ConfigMap');
    const help = await runCli(['adopt-check', '--help'], noCluster);
    expect(help.stdout).toMatch(/-v, --verbose/);
    for (const level of [['-v=6'], ['--v=6'], ['--v', '6']]) {
      const run = await runCli([...args, ...level], noCluster);
      expect(run.code, `${level}: ${run.stderr}`).toBe(10);
      expect(run.stdout).not.toContain('passed over: ConfigMap');
    }
  });
});

describe('--json with -o yaml is a conflict, not a silent choice', () => {
  it.each([
    ['status', []],
    ['migrate', ['--to', 'latest']],
    ['migrate', ['--to', 'latest', '-f', '-']],
  ])('%s %j --json -o yaml exits 2', async (command, extra) => {
    const run = await runCli([command, ...extra, '--json', '-o', 'yaml'], noCluster);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--json.*-o yaml|-o yaml.*--json/);
    expect(run.stdout).toBe('');
  });
});

describe('the --help exit-code table', () => {
  it('lists 130 (SIGINT) and 143 (SIGTERM), which migrate and status --watch really exit with', async () => {
    const run = await runCli(['--help'], noCluster);
    expect(run.stdout).toMatch(/130\s+.*interrupt/i);
    expect(run.stdout).toMatch(/143\s+.*SIGTERM/i);
  });
});

describe('kubeconfig users', () => {
  const kubeconfig = (users: string) => `apiVersion: v1
kind: Config
current-context: c
contexts:
- name: c
  context: {cluster: k, user: me}
clusters:
- name: k
  cluster: {server: "https://127.0.0.1:1"}
users:
${users}`;
  const exec = `- name: me
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: no-such-credential-plugin-24
`;
  const otherWithMissingTokenFile = `- name: other
  user:
    tokenFile: /nonexistent/other-token
`;

  it('a missing exec plugin is a kubeconfig error (exit 3) naming the user and the command', async () => {
    const file = path.join(scratch(), 'config');
    writeFileSync(file, kubeconfig(exec));
    const run = await runCli(['status'], { KUBECONFIG: file });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('"me"');
    expect(run.stderr).toContain('no-such-credential-plugin-24');
    expect(run.stderr).toMatch(/hint: /);
    expect(run.stderr).not.toContain('bug');
  });

  it("another user's missing tokenFile is not read, nor blamed", async () => {
    const file = path.join(scratch(), 'config');
    writeFileSync(file, kubeconfig(`${exec}${otherWithMissingTokenFile}`));
    const run = await runCli(['status'], { KUBECONFIG: file });
    expect(run.stderr).not.toContain('other-token');
    expect(run.stderr).toContain('no-such-credential-plugin-24');
    expect(run.code).toBe(3);
    const token = path.join(scratch(), 'config');
    writeFileSync(token, kubeconfig(`- name: me\n  user: {token: abc}\n${otherWithMissingTokenFile}`));
    const plain = await runCli(['status'], { KUBECONFIG: token });
    expect(plain.stderr).not.toContain('other-token');
    expect(plain.code).toBe(4);
  });
});

describe('file names and messages with control or bidi characters are escaped in human output', () => {
  const nasty = `a\nb\u001b[31m${rlo}.yaml`;

  it('migrate -f --diff escapes the diff headers and the lines on stderr', async () => {
    const dir = scratch();
    const file = path.join(dir, nasty);
    writeFileSync(file, convertible);
    const run = await runCli(['migrate', '--to', 'latest', '-f', file, '--diff'], noCluster);
    expect(run.code).toBe(23);
    const headers = run.stdout.split('\n').filter((line) => /^(---|\+\+\+) /.test(line));
    expect(headers).toHaveLength(2);
    for (const header of headers) {
      expect(header).toContain('\\x1b');
      expect(header).toContain('\\u202e');
    }
    expect(run.stdout).not.toMatch(bidiControls);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stderr).not.toMatch(bidiControls);
    expect(run.stderr).toContain('\\u202e');
  });

  it('keeps the exact name in -o json', async () => {
    const file = path.join(scratch(), `x${rlo}.yaml`);
    writeFileSync(file, convertible);
    const run = await runCli(['migrate', '--to', 'latest', '-f', file, '-o', 'json'], noCluster);
    expect(run.stdout).toContain(rlo);
  });

  it('an error naming a file escapes it', async () => {
    const dir = scratch();
    const file = path.join(dir, `bad${rlo}\u001b[2J.yaml`);
    writeFileSync(file, 'a: [\n');
    const run = await runCli(['migrate', '--to', 'latest', '-f', file], noCluster);
    expect(run.code).toBe(9);
    expect(run.stderr).not.toMatch(bidiControls);
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr).toContain('\\u202e');
  });

  it('adopt-check escapes names in its table', async () => {
    const file = path.join(scratch(), 'named.yaml');
    writeFileSync(file, convertible.replace('name: pg', `name: "pg${rlo}gnp"`));
    copyFileSync(file, `${file}.bak`);
    const run = await runCli(
      ['adopt-check', '-f', file, '--credential', 'local', '--subscription', guid, '-o', 'wide'],
      noCluster,
    );
    expect(run.stdout).toContain('\\u202e');
    expect(run.stdout + run.stderr).not.toMatch(bidiControls);
  });
});
