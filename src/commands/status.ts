import { AsoCommand } from '../lib/cli/aso-command.ts';
import { notImplemented } from '../lib/cli/not-implemented.ts';

export default class Status extends AsoCommand {
  static override summary =
    "Every ASO resource's Ready condition across namespaces, summarised (not implemented yet)";
  static override strict = false;

  async run(): Promise<void> {
    notImplemented('status');
  }
}
