import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { emitStages, modelStages } from '../../src/codegen/pipeline.ts';
import { runStages } from '../../src/codegen/runner.ts';
import type { Stage } from '../../src/codegen/stage.ts';
import { type GenerationState, newState } from '../../src/codegen/state.ts';

/** The repository root, whose schemas and config the generator tests run on. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `stages` over the repository's schemas in memory (nothing is written) and returns the state. */
export function generate(
  stages: readonly Stage[] = [...modelStages, ...emitStages],
  before?: (state: GenerationState) => void,
): { state: GenerationState; log: string[] } {
  const state = newState(repoRoot);
  const log: string[] = [];
  before?.(state);
  runStages(stages, state, (line) => log.push(line));
  return { state, log };
}

/** Compares emitted code with a committed golden file under test/codegen/golden (UPDATE_GOLDEN=1 rewrites). */
export function expectGoldenCode(name: string, actual: string | undefined): void {
  expect(actual).toBeDefined();
  const path = join(repoRoot, 'test/codegen/golden', name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual ?? '');
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
