import { Chalk, type ChalkInstance } from 'chalk';

/**
 * A chalk instance that colours only when the user wants it: not with `--no-color`, not with NO_COLOR
 * set (any value, per no-color.org), and not when the stream is not a terminal (pipes, files, CI logs).
 */
export function paletteFor(
  colorFlag: boolean,
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): ChalkInstance {
  const wanted = colorFlag && env.NO_COLOR === undefined && stream.isTTY === true;
  return new Chalk({ level: wanted ? 1 : 0 });
}
