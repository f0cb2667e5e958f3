import { describe, expect, it } from 'vitest';
import { withBareDryRun } from '../../../src/lib/cli/dry-run.ts';

describe('a bare --dry-run', () => {
  it('means client, as in kubectl', () => {
    expect(withBareDryRun(['--to', 'v1api', '--dry-run'])).toEqual(['--to', 'v1api', '--dry-run=client']);
    expect(withBareDryRun(['--dry-run', '--to', 'v1api'])).toEqual(['--dry-run=client', '--to', 'v1api']);
  });

  it('leaves a value given after a space or an equals sign to the parser', () => {
    expect(withBareDryRun(['--dry-run', 'server', '--to', 'v1api'])).toEqual([
      '--dry-run',
      'server',
      '--to',
      'v1api',
    ]);
    expect(withBareDryRun(['--dry-run=none'])).toEqual(['--dry-run=none']);
  });
});
