import { AsoCommand } from '../lib/cli/aso-command.ts';
import { notImplemented } from '../lib/cli/not-implemented.ts';

export default class AdoptCheck extends AsoCommand {
  static override summary =
    'Before applying: which resources already exist in Azure and what ASO would do (not implemented yet)';
  static override strict = false;

  async run(): Promise<void> {
    notImplemented('adopt-check');
  }
}
