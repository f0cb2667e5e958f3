import { type Stage, StageError } from './stage.ts';
import type { GenerationState } from './state.ts';

/**
 * Runs stages in order, printing `stage i/n: description` for each, refusing a stage whose prerequisites
 * have not run, and wrapping any failure in a {@link StageError} that names the stage.
 */
export function runStages(
  stages: readonly Stage[],
  state: GenerationState,
  log: (line: string) => void,
): void {
  const done = new Set<string>();
  stages.forEach((current, i) => {
    const index = i + 1;
    log(`stage ${index}/${stages.length}: ${current.description}`);
    try {
      const missing = current.needs.filter((need) => !done.has(need));
      if (missing.length > 0) throw new Error(`prerequisites not run before it: ${missing.join(', ')}`);
      current.run(state);
    } catch (error) {
      throw new StageError(index, stages.length, current, error);
    }
    done.add(current.id);
  });
}
