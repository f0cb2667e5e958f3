import { describe, expect, it } from 'vitest';
import { staticHelpPage } from '../../../src/lib/cli/static-help.ts';

const ids = ['status', 'version'];

describe('staticHelpPage', () => {
  it.each([[[]], [['--help']], [['-h']], [['help']]])('answers %j with the root page', (argv) => {
    expect(staticHelpPage(argv, ids, undefined)).toBe('index');
  });
  it('answers a command help flag and `help COMMAND` with that command page', () => {
    expect(staticHelpPage(['status', '--help'], ids, 120)).toBe('status');
    expect(staticHelpPage(['help', 'version'], ids, undefined)).toBe('version');
  });
  it('leaves everything else to oclif', () => {
    expect(staticHelpPage(['status'], ids, undefined)).toBeUndefined();
    expect(staticHelpPage(['status', '-A', '--help'], ids, undefined)).toBeUndefined();
    expect(staticHelpPage(['nope', '--help'], ids, undefined)).toBeUndefined();
    expect(staticHelpPage(['--help'], ids, 60)).toBeUndefined();
  });
});
