import { describe, expect, it } from 'vitest';
import { closestCommand, parseErrorText, unknownCommandOf } from '../../../src/lib/cli/usage-errors.ts';

const ids = ['adopt-check', 'migrate', 'status', 'version'];

describe('closestCommand', () => {
  it('suggests the command a typo is nearest to, or that the word starts', () => {
    expect(closestCommand('statsu', ids)).toBe('status');
    expect(closestCommand('verison', ids)).toBe('version');
    expect(closestCommand('adopt', ids)).toBe('adopt-check');
    expect(closestCommand('Status', ids)).toBe('status');
  });
  it('suggests nothing for a word far from every command', () => {
    expect(closestCommand('deploy', ids)).toBeUndefined();
  });
});

describe('unknownCommandOf', () => {
  it("turns oclif's command-not-found into a usage error with a suggestion", () => {
    const error = unknownCommandOf(new Error('command statsu not found'), ids);
    expect(error?.exit).toBe('usage');
    expect(error?.message).toBe('unknown command "statsu" for "kubectl aso"');
    expect(error?.hint).toContain('did you mean "kubectl aso status"?');
  });
  it('names an argument given to a command that takes none, and an unknown first flag', () => {
    expect(unknownCommandOf(new Error('command status:extra:more not found'), ids)?.message).toBe(
      'kubectl aso status takes no arguments, but was given "extra more"',
    );
    expect(unknownCommandOf(new Error('command --bogus not found'), ids)?.message).toBe(
      'unknown flag: --bogus',
    );
  });
  it('leaves every other error alone', () => {
    expect(unknownCommandOf(new Error('connection refused'), ids)).toBeUndefined();
    expect(unknownCommandOf('command x not found', ids)).toBeUndefined();
  });
});

describe('parseErrorText', () => {
  it("puts oclif's multi-line parser messages on one line without the help pointer", () => {
    expect(
      parseErrorText(
        'Parsing --chunk-size \n\tExpected an integer but received: x\nSee more help with --help',
      ),
    ).toBe('Parsing --chunk-size: Expected an integer but received: x');
  });
});
