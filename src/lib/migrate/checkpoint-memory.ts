import type { CheckpointStore, CrdCheckpoint } from './checkpoint.ts';

/**
 * Progress kept only for the life of the process: `--dry-run=server` stores nothing, so it must leave no
 * checkpoint a later real run would resume from as if its writes had happened.
 */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly where = 'memory (dry run: nothing saved)';
  private readonly saved = new Map<string, CrdCheckpoint>();

  async load(crd: string): Promise<CrdCheckpoint | undefined> {
    return this.saved.get(crd);
  }

  async save(checkpoint: CrdCheckpoint): Promise<void> {
    this.saved.set(checkpoint.crd, structuredClone(checkpoint));
  }

  async clear(crd: string): Promise<void> {
    this.saved.delete(crd);
  }
}
