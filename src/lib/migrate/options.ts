import { UsageError } from '../errors.ts';
import type { StrategyChoice } from './plan-types.ts';
import { describeTarget, parseTarget, type TargetSpec } from './target.ts';

/** Where checkpoints are kept: ConfigMaps in a namespace, or a local file. */
export type StateLocation = { namespace: string } | { file: string };

/** Everything about a `migrate` run that does not depend on the cluster, checked before connecting. */
export interface MigrateOptions {
  target: TargetSpec;
  targetText: string;
  kinds: string[];
  strategy: StrategyChoice;
  batchSize: number;
  concurrency: number;
  /** Plan only (`--dry-run`, `--dry-run=client`). */
  dryRun: boolean;
  /** `--dry-run=server`: every write carries `dryRun=All`, so the API server checks it and stores nothing. */
  serverDryRun?: boolean;
  /** `--backup-dir`: each object as read is written here as YAML before its first write. */
  backupDir?: string;
  restart: boolean;
  state: StateLocation;
}

/** The flags the options are made from, as the command parses them. */
export interface MigrateFlags {
  to: string;
  kind?: string[] | undefined;
  strategy: StrategyChoice;
  'batch-size': number;
  concurrency: number;
  /** `--dry-run` alone is `client` (the plan), as in kubectl; `none` or false writes. */
  'dry-run': boolean | 'none' | 'client' | 'server';
  'backup-dir'?: string | undefined;
  restart: boolean;
  'state-namespace'?: string | undefined;
  'state-file'?: string | undefined;
  /** Manifest-only flags: given without `-f` they would silently do nothing, so they are refused. */
  recursive?: boolean | undefined;
  write?: boolean | undefined;
  'output-dir'?: string | undefined;
  'allow-loss'?: boolean | undefined;
  'keep-going'?: boolean | undefined;
  diff?: boolean | undefined;
}

/** Flags that only mean something with `-f`. */
const manifestOnlyFlags = ['recursive', 'write', 'output-dir', 'diff', 'allow-loss', 'keep-going'] as const;

/**
 * The options the flags describe; `--state-namespace` with `--state-file`, and a manifest-only flag
 * without `-f`, are usage errors.
 */
export function migrateOptionsOf(flags: MigrateFlags, defaultStateNamespace: string): MigrateOptions {
  const manifestOnly = manifestOnlyFlags.filter((flag) => flags[flag] !== undefined && flags[flag] !== false);
  if (manifestOnly.length > 0) {
    throw new UsageError(`${manifestOnly.map((flag) => `--${flag}`).join(', ')} only apply to -f manifests`);
  }
  const state = stateLocationOf(flags, defaultStateNamespace);
  if (flags['backup-dir'] === '') throw new UsageError('--backup-dir: the folder is empty');
  const target = parseTarget(flags.to);
  return {
    target,
    targetText: describeTarget(target),
    kinds: flags.kind ?? [],
    strategy: flags.strategy,
    batchSize: flags['batch-size'],
    concurrency: flags.concurrency,
    dryRun: flags['dry-run'] === true || flags['dry-run'] === 'client',
    ...(flags['dry-run'] === 'server' ? { serverDryRun: true } : {}),
    ...(flags['backup-dir'] !== undefined ? { backupDir: flags['backup-dir'] } : {}),
    restart: flags.restart,
    state,
  };
}

/**
 * Where checkpoints are kept, from `--state-namespace` and `--state-file` (together, or an empty
 * namespace, a usage error): `migrate --restore` needs it too, to move a restored CRD's checkpoint along.
 */
export function stateLocationOf(
  flags: Pick<MigrateFlags, 'state-namespace' | 'state-file'>,
  defaultStateNamespace: string,
): StateLocation {
  if (flags['state-namespace'] !== undefined && flags['state-file'] !== undefined) {
    throw new UsageError('--state-namespace and --state-file cannot be used together');
  }
  if (flags['state-namespace'] === '') throw new UsageError('--state-namespace: the namespace is empty');
  return flags['state-file']
    ? { file: flags['state-file'] }
    : { namespace: flags['state-namespace'] ?? defaultStateNamespace };
}
