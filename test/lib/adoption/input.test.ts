import { describe, expect, it } from 'vitest';
import { adoptSourceOf } from '../../../src/lib/adoption/input.ts';
import { UsageError } from '../../../src/lib/errors.ts';

const base = { fromCluster: false, objects: [], credential: 'operator', concurrency: 16 };

describe('adoptSourceOf', () => {
  it('takes files from -f and the cluster from --from-cluster, with its narrowing', () => {
    expect(adoptSourceOf({ ...base, filename: ['a.yaml'] })).toBe('files');
    expect(adoptSourceOf({ ...base, fromCluster: true })).toBe('cluster');
    expect(
      adoptSourceOf({ ...base, fromCluster: true, objects: ['ResourceGroup/rg'], selector: 'app=x' }),
    ).toBe('cluster');
    expect(adoptSourceOf({ ...base, fromCluster: true, 'all-namespaces': true })).toBe('cluster');
  });

  it('refuses both inputs, neither, and cluster narrowing with files, naming what does not fit', () => {
    const refused = (flags: Parameters<typeof adoptSourceOf>[0]) => {
      try {
        adoptSourceOf(flags);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ ...base, filename: ['a.yaml'], fromCluster: true })).toContain('not both');
    expect(refused(base)).toContain('give -f FILE');
    expect(refused({ ...base, filename: ['a.yaml'], objects: ['ResourceGroup/rg'] })).toBe(
      'KIND/NAME (ResourceGroup/rg): only with --from-cluster',
    );
    expect(refused({ ...base, filename: ['a.yaml'], 'all-namespaces': true, selector: 'a=b' })).toBe(
      '-A, -l: only with --from-cluster',
    );
    expect(refused({ ...base, fromCluster: true, 'all-namespaces': true, objects: ['rg/x'] })).toContain(
      'KIND/NAME or -A',
    );
  });
});
