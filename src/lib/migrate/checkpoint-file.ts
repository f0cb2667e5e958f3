import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { InvalidInput } from '../errors.ts';
import type { CheckpointStore, CrdCheckpoint } from './checkpoint.ts';

interface StateFile {
  format: 1;
  crds: Record<string, CrdCheckpoint>;
}

/**
 * Checkpoints in one local JSON file (`--state-file`), for users who may not write ConfigMaps. Each save
 * writes a temporary file and renames it over the old one, so a kill never leaves half a file.
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly where: string;

  /** With `restart`, an unreadable file is overwritten instead of refused: the user asked to start over. */
  private readonly path: string;
  private readonly restart: boolean;

  constructor(path: string, restart = false) {
    this.path = path;
    this.restart = restart;
    this.where = `file ${path}`;
  }

  private read(): StateFile {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, crds: {} };
      throw new InvalidInput(this.path, `cannot read the migration state (${(error as Error).message})`);
    }
    try {
      const parsed = JSON.parse(text) as StateFile;
      if (parsed.format !== 1 || typeof parsed.crds !== 'object')
        throw new Error('not a kubectl-aso migration state');
      return parsed;
    } catch (error) {
      if (this.restart) return { format: 1, crds: {} };
      throw new InvalidInput(
        this.path,
        `not a kubectl-aso migration state file (${(error as Error).message}); pass --restart to overwrite it`,
      );
    }
  }

  private write(state: StateFile): void {
    const temporary = `${this.path}.tmp-${process.pid}`;
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(temporary, this.path);
  }

  async load(crd: string): Promise<CrdCheckpoint | undefined> {
    return this.read().crds[crd];
  }

  async save(checkpoint: CrdCheckpoint): Promise<void> {
    const state = this.read();
    state.crds[checkpoint.crd] = checkpoint;
    this.write(state);
  }

  async clear(crd: string): Promise<void> {
    const state = this.read();
    if (!(crd in state.crds)) return;
    delete state.crds[crd];
    this.write(state);
  }
}
