import { describe, expect, it } from 'vitest';
import { runStages } from '../../src/codegen/runner.ts';
import { StageError, stage } from '../../src/codegen/stage.ts';
import { newState } from '../../src/codegen/state.ts';

const first = stage({ id: 'first', description: 'Do the first thing', needs: [], run: () => {} });
const second = stage({ id: 'second', description: 'Do the second thing', needs: ['first'], run: () => {} });
const broken = stage({
  id: 'broken',
  description: 'Fail on purpose',
  needs: [],
  run: () => {
    throw new Error('boom');
  },
});

describe('the stage runner', () => {
  it('reports every stage as "stage i/n: description"', () => {
    const log: string[] = [];
    runStages([first, second], newState('/nowhere'), (line) => log.push(line));
    expect(log).toEqual(['stage 1/2: Do the first thing', 'stage 2/2: Do the second thing']);
  });

  it('names the failing stage in the error', () => {
    expect(() => runStages([first, broken], newState('/nowhere'), () => {})).toThrow(
      'stage 2/2 (broken: Fail on purpose) failed: boom',
    );
  });

  it('refuses a stage whose prerequisites have not run', () => {
    let error: unknown;
    try {
      runStages([second, first], newState('/nowhere'), () => {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StageError);
    expect((error as StageError).stageId).toBe('second');
    expect((error as Error).message).toContain('prerequisites not run before it: first');
  });
});
