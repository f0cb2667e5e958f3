import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli.ts';

// Kubeconfigs the issue-24 sweep found answered as internal errors (exit 1): each is a kubeconfig problem.
// Still open: client-key-data that is no PEM key fails at connect time (exit 1), outside these checks.
const secret = 'Kubeconfig-Secret-Marker-24';

function kubeconfig(cluster: string, user: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kubectl-aso-kubeconfig-')), 'config');
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: me}\nclusters:\n- name: k\n  cluster: ${cluster}\nusers:\n- name: me\n  user: ${user}\n`,
  );
  return path;
}

const closed = '{server: "https://127.0.0.1:1"}';
const exec = (command: string, args: string[]) =>
  `{exec: {apiVersion: client.authentication.k8s.io/v1, command: "${command}", args: ${JSON.stringify(args)}}}`;

describe('an unusable kubeconfig is exit 3 naming what is wrong, never an internal error', () => {
  it.each([
    ['a server that is no URL', '{server: "not a url"}', '{token: t}', 'no http(s) URL'],
    ['a server that is not http(s)', '{server: "ftp://127.0.0.1:1"}', '{token: t}', 'no http(s) URL'],
    [
      'a proxy-url that is no URL',
      '{server: "https://127.0.0.1:1", proxy-url: "::nope"}',
      '{token: t}',
      'user "me"',
    ],
    ['an exec plugin that fails', closed, exec('false', []), 'user "me"'],
    ['an exec plugin that prints no JSON', closed, exec('echo', [secret]), 'not JSON'],
  ])('%s', async (_name, cluster, user, named) => {
    const run = await runCli(['status', '--kubeconfig', kubeconfig(cluster, user)]);
    expect(run.stderr).not.toContain('bug');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(named);
    expect(run.stdout + run.stderr).not.toContain(secret);
  });
});
