import { Help } from '@oclif/core';
import { exitCodeRows } from '../exit-codes.ts';

/** The exit-code table as help text; one table for every command. */
export function exitCodeHelp(): string {
  const rows = exitCodeRows();
  const width = Math.max(...rows.map(([code]) => String(code).length));
  return [
    'EXIT CODES',
    ...rows.map(([code, meaning]) => `  ${String(code).padStart(width)}  ${meaning}`),
  ].join('\n');
}

/** oclif's help, plus the exit-code table under every page, so scripts know what each code means. */
export default class AsoHelp extends Help {
  override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    this.log(`\n${exitCodeHelp()}`);
  }

  override async showCommandHelp(command: Parameters<Help['showCommandHelp']>[0]): Promise<void> {
    await super.showCommandHelp(command);
    this.log(`\n${exitCodeHelp()}`);
  }
}
