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
