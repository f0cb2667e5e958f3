import { Flags } from '@oclif/core';

/** The output formats every command offers. */
export const outputFormats = ['table', 'wide', 'json', 'yaml'] as const;

/** One of {@link outputFormats}. */
export type OutputFormat = (typeof outputFormats)[number];

/** `-o` and `--no-color`, shared by every command that renders a result. */
export const outputFlags = {
  output: Flags.option({
    char: 'o',
    options: outputFormats,
    default: 'table' as OutputFormat,
    description: 'output format',
  })(),
  color: Flags.boolean({
    default: true,
    allowNo: true,
    description: 'colour the output (also off with NO_COLOR or when stdout is not a terminal)',
  }),
};

/**
 * The `-o` format given beside `--json` when it is not `json`, else undefined. oclif's `--json` silently
 * wins over `-o yaml`, and a script that asked for YAML would parse JSON: the two asked for different
 * things, so the plugin refuses the pair instead of choosing. Arguments after `--` are not flags.
 */
export function outputBesideJson(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  if (!flags.includes('--json')) return undefined;
  for (let index = 0; index < flags.length; index++) {
    const arg = flags[index] as string;
    const joined = /^(?:--output=|-o=?)(.+)$/.exec(arg);
    const format = joined ? joined[1] : arg === '-o' || arg === '--output' ? flags[index + 1] : undefined;
    if (format !== undefined && format !== 'json') return format;
  }
  return undefined;
}
