import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { emitStages, modelStages } from '../../src/codegen/pipeline.ts';
import { runStages } from '../../src/codegen/runner.ts';
import type { Stage } from '../../src/codegen/stage.ts';
import { type GenerationState, newState } from '../../src/codegen/state.ts';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The generator tests' own schemas and config, relative to the root: the earlier hand-written schemas with
 * changes invented to exercise the stages (a property and a type renamed, properties removed, a 2014 Sql
 * version whose conversion needs hooks), which the real schemas under `schemas/` do not carry.
 */
export const fixtureSchemas = 'test/codegen/fixtures/schemas';

/** Runs `stages` over the fixture schemas in memory (nothing is written) and returns the state. */
export function generate(
  stages: readonly Stage[] = [...modelStages, ...emitStages],
  before?: (state: GenerationState) => void,
): { state: GenerationState; log: string[] } {
  const state = newState(repoRoot, fixtureSchemas);
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
