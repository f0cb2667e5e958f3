import { UsageError } from '../../errors.ts';
import { describeTarget, parseTarget } from '../target.ts';
import type { ManifestRunOptions } from './run.ts';

/** The flags of `migrate` that the manifest mode (`-f`) reads. */
export interface ManifestFlags {
  to: string;
  filename: string[];
  recursive: boolean;
  write: boolean;
  'output-dir'?: string | undefined;
  diff: boolean;
  'allow-loss': boolean;
  'keep-going'?: boolean | undefined;
  kind?: string[] | undefined;
  'dry-run'?: boolean | string | undefined;
  restart?: boolean | undefined;
  'state-namespace'?: string | undefined;
  'state-file'?: string | undefined;
  'backup-dir'?: string | undefined;
}

/** Flags that act on the cluster's stored objects only; with `-f` they would silently do nothing. */
export const clusterOnlyFlags = [
  'kind',
  'dry-run',
  'restart',
  'state-namespace',
  'state-file',
  'backup-dir',
] as const;

/**
 * The options of a manifest run, checked before any file is read: `--write` and `--output-dir` exclude
 * each other, and a cluster-only flag given with `-f` is a usage error rather than ignored.
 */
export function manifestOptionsOf(flags: ManifestFlags, readStdin?: () => string): ManifestRunOptions {
  const clusterOnly = clusterOnlyFlags.filter((flag) => flags[flag] !== undefined && flags[flag] !== false);
  if (clusterOnly.length > 0) {
    throw new UsageError(
      `${clusterOnly.map((flag) => `--${flag}`).join(', ')} act on the cluster's objects, not on -f manifests`,
    );
  }
  if (flags.write && flags['output-dir'] !== undefined) {
    throw new UsageError('--write and --output-dir cannot be used together');
  }
  if (flags['output-dir'] === '') throw new UsageError('--output-dir: the folder is empty');
  const target = parseTarget(flags.to);
  return {
    input: { files: flags.filename, recursive: flags.recursive, ...(readStdin ? { readStdin } : {}) },
    target,
    targetText: describeTarget(target),
    destination: flags.write
      ? { to: 'write' }
      : flags['output-dir'] !== undefined
        ? { to: 'dir', dir: flags['output-dir'] }
        : { to: 'stdout' },
    diff: flags.diff,
    allowLoss: flags['allow-loss'],
    keepGoing: flags['keep-going'] === true,
  };
}
