import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeAtomically } from '../atomic-write.ts';
import { InvalidInput } from '../errors.ts';
import { parseJson } from '../json/parse-json.ts';
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
      const parsed = parseJson(text) as StateFile;
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
    try {
      writeAtomically(this.path, `${JSON.stringify(state, null, 2)}\n`);
    } catch (error) {
      throw new InvalidInput(
        `--state-file ${this.path}`,
        `cannot save the progress (${(error as Error).message})`,
      );
    }
  }

  /**
   * Checks, before the cluster is touched, that progress can be kept here: the folder exists and is
   * writable, and the file, when there, is a state file (or `--restart`) the user may replace. Otherwise
   * the first save, after the first batch was written, would fail.
   */
  check(): void {
    const where = `--state-file ${this.path}`;
    const folder = path.dirname(path.resolve(this.path));
    try {
      if (!statSync(folder).isDirectory()) throw new InvalidInput(where, `${folder} is not a folder`);
      accessSync(folder, constants.W_OK | constants.X_OK);
    } catch (error) {
      if (error instanceof InvalidInput) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new InvalidInput(
        where,
        code === 'ENOENT'
          ? `the folder ${folder} does not exist`
          : `cannot write in the folder ${folder} (${code ?? (error as Error).message})`,
      );
    }
    let file: ReturnType<typeof statSync> | undefined;
    try {
      file = statSync(this.path);
    } catch {
      return; // not there yet: the first save creates it
    }
    if (!file.isFile()) throw new InvalidInput(where, 'not a regular file');
    try {
      accessSync(this.path, constants.W_OK);
    } catch (error) {
      throw new InvalidInput(where, `not writable by this user (${(error as NodeJS.ErrnoException).code})`);
    }
    this.read();
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
