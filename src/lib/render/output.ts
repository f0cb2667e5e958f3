import type { ChalkInstance } from 'chalk';
import type { OutputFormat } from '../cli/output-flags.ts';
import { paletteFor } from './colors.ts';
import { tableWidth } from './table.ts';

/** What a human renderer gets: colours already decided and the width it may use. */
export interface RenderContext {
  palette: ChalkInstance;
  width: number;
  wide: boolean;
}

/** Turns a command's typed result into the text a person reads. */
export type HumanRenderer<T> = (result: T, context: RenderContext) => string;

/**
 * Prints a command's typed result in the chosen format: JSON and YAML print exactly the result and
 * nothing else; table and wide go through the command's own renderer.
 */
export async function printResult<T>(
  result: T,
  format: OutputFormat,
  human: HumanRenderer<T>,
  options: { color: boolean; stream?: NodeJS.WriteStream } = { color: true },
): Promise<void> {
  const stream = options.stream ?? process.stdout;
  stream.write(
    await formatResult(result, format, human, {
      palette: paletteFor(options.color, stream),
      width: tableWidth(format === 'wide', stream),
      wide: format === 'wide',
    }),
  );
}

/** The text {@link printResult} prints, for tests and for callers that redraw (watch). */
export async function formatResult<T>(
  result: T,
  format: OutputFormat,
  human: HumanRenderer<T>,
  context: RenderContext,
): Promise<string> {
  if (format === 'json') return `${JSON.stringify(result, null, 2)}\n`;
  if (format === 'yaml') {
    const { stringify } = await import('yaml');
    return stringify(result);
  }
  const text = human(result, context);
  return text.endsWith('\n') ? text : `${text}\n`;
}
