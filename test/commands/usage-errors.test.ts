import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CompletionCommand, CompletionFlag } from '../../src/lib/cli/completion.ts';
import { runCli } from '../fixtures/cli.ts';

// Every command and flag as the build describes them, so a flag added later is walked too.
const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, CompletionCommand>;
};
// Flags that take a value the parser itself checks (a fixed list, an integer, a duration, a state list).
const checkedValues = new Set(['chunk-size', 'concurrency', 'timeout', 'request-timeout', 'state']);
const noCluster = { KUBECONFIG: '/nonexistent/kubeconfig' };

/** A value the flag accepts, so that a case fails only for what it is about. */
function validValue(flag: CompletionFlag): string {
  if (flag.options?.[0]) return flag.options[0];
  return ['chunk-size', 'concurrency'].includes(flag.name)
    ? '5'
    : ['timeout', 'request-timeout'].includes(flag.name)
      ? '5s'
      : 'x';
}

/** Each wrong use of each value-taking flag: missing its value (last, or before another flag), a value it refuses, given twice. */
function cases(): Array<{ name: string; args: string[] }> {
  const all: Array<{ name: string; args: string[] }> = [];
  for (const command of Object.values(manifest.commands)) {
    for (const flag of Object.values(command.flags)) {
      if (flag.type !== 'option') continue;
      const spelled = `--${flag.name}`;
      all.push({ name: `${command.id} ${spelled} (no value)`, args: [command.id, spelled] });
      // The short form, followed by another of the command's flags rather than a value.
      const next = Object.values(command.flags).find(
        (other) => other.type === 'boolean' && other.name !== 'json',
      );
      if (flag.char && next) {
        all.push({
          name: `${command.id} -${flag.char} --${next.name}`,
          args: [command.id, `-${flag.char}`, `--${next.name}`],
        });
      }
      if (flag.options || checkedValues.has(flag.name)) {
        all.push({ name: `${command.id} ${spelled} bogus`, args: [command.id, spelled, 'bogus!'] });
      }
      if (!flag.multiple) {
        const value = validValue(flag);
        all.push({
          name: `${command.id} ${spelled} twice`,
          args: [command.id, spelled, value, spelled, value],
        });
      }
    }
  }
  return all;
}

describe('usage errors: exit 2 and the plugin\'s own message, never "a bug"', () => {
  it('answers an unknown command with the closest one', async () => {
    const run = await runCli(['statsu'], noCluster);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'error: unknown command "statsu" for "kubectl aso"\nhint: did you mean "kubectl aso status"? (see kubectl aso --help)\n',
    );
    expect(run.stdout).toBe('');
  });

  it('walks every flag of every command: missing value, refused value, repeated single value', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (let start = 0; start < all.length; start += 6) {
      await Promise.all(
        all.slice(start, start + 6).map(async ({ name, args }) => {
          const run = await runCli(args, noCluster);
          if (run.code !== 2 || !run.stderr.startsWith('error: ') || /bug|›/.test(run.stderr)) {
            failures.push(`${name}: exit ${run.code}: ${run.stderr.trim()}`);
          }
        }),
      );
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
