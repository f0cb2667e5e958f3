import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from './pipeline.ts';
import { runStages } from './runner.ts';
import { newState } from './state.ts';

/**
 * `npm run generate`: runs every stage over this repository and writes `generated/`. Progress goes to
 * stderr; a failure prints the stage's name and exits 1.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
try {
  const state = newState(root);
  runStages(pipeline, state, (line) => process.stderr.write(`${line}\n`));
  process.stderr.write(`wrote ${state.files.size} files under generated/\n`);
} catch (error) {
  process.stderr.write(`generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
