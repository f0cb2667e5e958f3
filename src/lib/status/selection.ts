import { UsageError } from '../errors.ts';
import { printable } from '../render/printable.ts';
import { type State, states } from './ready-state.ts';

/** The orders `--sort` offers. */
export const sortKeys = ['namespace', 'kind', 'age', 'state'] as const;
/**
 * One order of the rows: `namespace` (then kind, name), `kind` (then namespace, name), `age` (most recent
 * transition first) or `state` (worst first). See `sortItems`.
 */
export type SortKey = (typeof sortKeys)[number];

/** The `--fail-on` thresholds. */
export const failOnLevels = ['error', 'warning', 'not-ready'] as const;
/**
 * The least healthy state a run may report and still succeed: `error` fails on Error, `warning` on Warning
 * or Error, `not-ready` on anything but Ready. See `failsOn`.
 */
export type FailOn = (typeof failOnLevels)[number];

/** Which objects `status` looks at and which of them it reports. */
export interface StatusSelection {
  /** One namespace, or undefined for all (`-A`). */
  namespace: string | undefined;
  labelSelector: string | undefined;
  /** `--kind` patterns; empty means every ASO kind. */
  kinds: string[];
  /** The states to report; undefined means all. Summaries count only what is reported. */
  states: ReadonlySet<State> | undefined;
  sort: SortKey;
}

/** The flags a selection is made from, as the command parses them. */
export interface SelectionFlags {
  'all-namespaces'?: boolean | undefined;
  namespace?: string | undefined;
  selector?: string | undefined;
  kind?: string[] | undefined;
  state?: string[] | undefined;
  'not-ready'?: boolean | undefined;
  sort?: string | undefined;
}

/** Parses `--state error,warning` (repeatable, case-insensitive) into states. */
export function parseStates(values: string[]): Set<State> {
  const parsed = new Set<State>();
  for (const value of values.flatMap((entry) => entry.split(','))) {
    const name = value.trim().toLowerCase();
    if (name.length === 0) continue;
    const state = states.find((candidate) => candidate.toLowerCase() === name);
    if (!state) {
      throw new UsageError(
        `--state: "${value.trim()}" is not a state (one of ${states.map((s) => s.toLowerCase()).join(', ')})`,
      );
    }
    parsed.add(state);
  }
  return parsed;
}

/**
 * The selection the flags describe. Without `-A` or `-n` the context's namespace is used, as kubectl does;
 * `-A` wins over `-n`, as in kubectl (`kubectl get -A -n x` lists every namespace). An empty `-n ""`
 * without `-A` is a usage error (it must not quietly mean every namespace), as is `--state` with
 * `--not-ready` naming nothing in common.
 */
export function selectionFrom(flags: SelectionFlags, contextNamespace: string): StatusSelection {
  if (flags.namespace === '' && !flags['all-namespaces']) {
    throw new UsageError('-n/--namespace: the namespace is empty; name one, or pass -A for every namespace');
  }
  let wanted: Set<State> | undefined = flags.state?.length ? parseStates(flags.state) : undefined;
  if (flags['not-ready']) {
    const notReady = states.filter((state) => state !== 'Ready');
    wanted = new Set(wanted ? notReady.filter((state) => wanted?.has(state)) : notReady);
    if (wanted.size === 0) throw new UsageError('--not-ready with --state ready selects nothing');
  }
  const sort = (flags.sort ?? 'namespace') as SortKey;
  if (!sortKeys.includes(sort)) {
    throw new UsageError(`--sort: "${flags.sort}" is not one of ${sortKeys.join(', ')}`);
  }
  return {
    namespace: flags['all-namespaces'] ? undefined : (flags.namespace ?? contextNamespace),
    labelSelector: flags.selector || undefined,
    kinds: flags.kind ?? [],
    states: wanted,
    sort,
  };
}

/**
 * The selection in words, as the flags gave it (`namespace prod, -l app=web, --kind Vault`), for messages
 * that must say what matched nothing.
 */
export function describeSelection(selection: StatusSelection): string {
  const parts = [selection.namespace === undefined ? 'all namespaces' : `namespace ${selection.namespace}`];
  if (selection.labelSelector) parts.push(`-l ${selection.labelSelector}`);
  if (selection.kinds.length > 0) parts.push(`--kind ${selection.kinds.join(', ')}`);
  return printable(parts.join(', '));
}

/**
 * Checks the selection flags at once and resolves the namespace later: the context's namespace is only
 * known after the kubeconfig is read, but a bad flag value must be a usage error (exit 2) even when there
 * is no kubeconfig at all, so the check cannot wait for the connection.
 */
export function selectionCheckedFrom(flags: SelectionFlags): (contextNamespace: string) => StatusSelection {
  const checked = selectionFrom(flags, '');
  return (contextNamespace) => ({
    ...checked,
    namespace: flags['all-namespaces'] ? undefined : (flags.namespace ?? contextNamespace),
  });
}
