import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CompletionCommand, completionPlan, directives } from '../../../src/lib/cli/completion.ts';
import { runCompletion } from '../../../src/lib/cli/completion-main.ts';
import {
  completionTimeoutMs,
  defaultCompletionTimeoutMs,
  matchingValues,
} from '../../../src/lib/cli/completion-values.ts';

// The manifest the build writes from the real commands (npm test and test:unit build first), so these
// tests follow the commands as they are rather than a copy of their flags.
const manifest = JSON.parse(
  readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8'),
) as {
  commands: Record<string, CompletionCommand>;
};
const commands = manifest.commands;
const values = (words: string[]) =>
  completionPlan(words, commands).candidates.map((line) => line.split('\t')[0] ?? '');

describe('completionPlan', () => {
  it('offers every command, with its summary, for the first word', () => {
    const plan = completionPlan([''], commands);
    expect(plan.candidates.map((line) => line.split('\t')[0])).toEqual(Object.keys(commands).sort());
    expect(plan.candidates).toContain(`status\t${commands.status?.summary}`);
    expect(plan.directive).toBe(directives.noFileComp);
  });

  it('offers only the commands that start with what was typed', () => {
    expect(values(['st'])).toEqual(['status']);
    expect(values(['adopt'])).toEqual(['adopt-check']);
    expect(values(['x'])).toEqual([]);
  });

  it("offers a command's long flags for `--`, and short ones too for `-`", () => {
    const long = values(['status', '--']);
    expect(long).toEqual(
      expect.arrayContaining([
        '--namespace',
        '--all-namespaces',
        '--kind',
        '--output',
        '--no-color',
        '--help',
      ]),
    );
    expect(long.every((flag) => flag.startsWith('--'))).toBe(true);
    expect(values(['status', '-'])).toEqual(expect.arrayContaining(['-n', '-A', '-o', '--watch']));
    expect(values(['adopt-check', '--f']).sort()).toEqual(['--fail-on', '--filename', '--from-cluster']);
  });

  it('leaves out a single-value flag already given, and keeps a repeatable one', () => {
    const flags = values(['status', '-o', 'json', '--kind', 'rg', '--']);
    expect(flags).not.toContain('--output');
    expect(flags).toContain('--kind');
  });

  it('offers the fixed values of -o, --sort, --fail-on and --credential, as the next word or after =', () => {
    expect(values(['status', '-o', ''])).toEqual(['table', 'wide', 'json', 'yaml']);
    expect(values(['status', '--output=j'])).toEqual(['--output=json']);
    expect(values(['status', '--sort', ''])).toEqual(['namespace', 'kind', 'age', 'state']);
    expect(values(['status', '--fail-on', ''])).toEqual(['error', 'warning', 'not-ready']);
    expect(values(['adopt-check', '--fail-on', 'd'])).toEqual(['delete-risk']);
    expect(values(['adopt-check', '--credential', ''])).toEqual(['operator', 'local']);
  });

  it('completes the last item of a --state list, keeping the ones before it', () => {
    expect(values(['status', '--state', 'error,w'])).toEqual(['error,warning']);
    expect(values(['status', '--state', 'p'])).toEqual(['progressing']);
  });

  it('asks for namespaces, contexts and kinds, from the cluster and kubeconfig the words name', () => {
    const plan = completionPlan(
      ['status', '--kubeconfig', '/k', '--context=prod', '--request-timeout', '1s', '-n', 'de'],
      commands,
    );
    expect(plan.dynamic).toEqual({ values: 'namespaces', typed: 'de', prefix: '' });
    expect(plan.connection).toEqual({ kubeconfig: '/k', context: 'prod', requestTimeout: '1s' });
    expect(completionPlan(['status', '--context', ''], commands).dynamic?.values).toBe('contexts');
    expect(completionPlan(['status', '--kind=Re'], commands).dynamic).toEqual({
      values: 'kinds',
      typed: 'Re',
      prefix: '--kind=',
    });
  });

  it('lets the shell complete manifest files for -f and any file for --kubeconfig', () => {
    const plan = completionPlan(['adopt-check', '-f', ''], commands);
    expect(plan.directive).toBe(directives.filterFileExt);
    expect(plan.candidates).toEqual(['yaml', 'yml', 'json']);
    expect(completionPlan(['status', '--kubeconfig', ''], commands).directive).toBe(directives.default);
  });

  it('offers nothing, and no file names, where nothing fits', () => {
    for (const words of [
      ['nope', ''],
      ['status', ''],
      ['status', '-l', ''],
      ['status', '--nope='],
    ]) {
      const plan = completionPlan(words, commands);
      expect(plan.candidates, words.join(' ')).toEqual([]);
      expect(plan.directive).toBe(directives.noFileComp);
    }
  });
});

describe('matchingValues', () => {
  const kinds = ['ResourceGroup', 'resourcegroups', 'rg', 'Vault', 'vaults'];
  it('offers kinds by their Kind when nothing is typed, and any name that starts with what is', () => {
    expect(matchingValues('kinds', kinds, '')).toEqual(['ResourceGroup', 'Vault']);
    expect(matchingValues('kinds', kinds, 'r')).toEqual(['resourcegroups', 'rg']);
    expect(matchingValues('kinds', kinds, 'V')).toEqual(['Vault']);
    expect(matchingValues('namespaces', ['prod', 'default', 'dev'], 'de')).toEqual(['default', 'dev']);
  });
});

describe('completionTimeoutMs', () => {
  it('uses --request-timeout when it is a positive duration, and a short default otherwise', () => {
    expect(completionTimeoutMs('500ms')).toBe(500);
    expect(completionTimeoutMs(undefined)).toBe(defaultCompletionTimeoutMs);
    expect(completionTimeoutMs('0')).toBe(defaultCompletionTimeoutMs);
    expect(completionTimeoutMs('soon')).toBe(defaultCompletionTimeoutMs);
  });
});

describe('runCompletion', () => {
  it("prints one candidate per line, then cobra's directive line", async () => {
    let out = '';
    await runCompletion(['status', '--sort', 'a'], commands, (text) => {
      out += text;
    });
    expect(out).toBe('age\n:4\n');
  });

  it('prints no values, quickly and silently, when the cluster cannot be reached', async () => {
    let out = '';
    const started = Date.now();
    await runCompletion(['status', '--kubeconfig', '/nonexistent/kubeconfig', '-n', ''], commands, (text) => {
      out += text;
    });
    expect(out).toBe(':4\n');
    expect(Date.now() - started).toBeLessThan(defaultCompletionTimeoutMs);
  });
});
