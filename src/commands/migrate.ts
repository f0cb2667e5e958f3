import { AsoCommand } from '../lib/cli/aso-command.ts';
import { notImplemented } from '../lib/cli/not-implemented.ts';

export default class Migrate extends AsoCommand {
  static override summary =
    'Move objects from old storage versions to the new hub, then clean stored versions (not implemented yet)';
  static override strict = false;

  async run(): Promise<void> {
    notImplemented('migrate');
  }
}
