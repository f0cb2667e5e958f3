import type { GenerationState } from './state.ts';

/**
 * One step of the generator: a name, what it does, which stages must have run before it, and the work.
 * Stages communicate only through {@link GenerationState}, so each can be tested alone.
 */
export interface Stage {
  readonly id: string;
  readonly description: string;
  readonly needs: readonly string[];
  readonly run: (state: GenerationState) => void;
}

/** Declares a stage; exists so that every stage file reads the same way. */
export function stage(definition: Stage): Stage {
  return definition;
}

/** An error raised inside a stage, carrying the stage's id and position so the message always names it. */
export class StageError extends Error {
  readonly stageId: string;
  constructor(index: number, total: number, stage: Stage, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`stage ${index}/${total} (${stage.id}: ${stage.description}) failed: ${reason}`, { cause });
    this.name = 'StageError';
    this.stageId = stage.id;
  }
}
