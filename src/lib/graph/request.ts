import { UsageError } from '../errors.ts';
import type { GraphRequest } from './report.ts';

/** The arguments and flags a graph command takes its objects from, as parsed. */
export interface GraphSelectionFlags {
  objects: string[];
  filename?: string[] | undefined;
  recursive?: boolean | undefined;
  namespace?: string | undefined;
  'all-namespaces'?: boolean | undefined;
}

/**
 * Which objects the command is about: `KIND/NAME` arguments, `-f` files, every object of `-n NS`, or of
 * every namespace with `-A` (when the command allows it). Objects and files exclude each other and `-A`;
 * with none of them, the namespace (the flag's or the context's) is the selection, as `kubectl get` does.
 */
export function graphRequestOf(
  flags: GraphSelectionFlags,
  contextNamespace: string,
  allowAll = true,
): GraphRequest {
  const namespace = flags.namespace || contextNamespace || 'default';
  const files = flags.filename ?? [];
  const given = [flags.objects.length > 0, files.length > 0, Boolean(flags['all-namespaces'])].filter(
    Boolean,
  ).length;
  if (given > 1) throw new UsageError('give KIND/NAME, -f FILE or -A, not more than one of them');
  if (flags['all-namespaces'] && !allowAll)
    throw new UsageError('-A is not offered here: name the namespace with -n');
  if (flags.namespace === '') throw new UsageError('-n/--namespace: the namespace is empty; name one');
  if (flags.objects.length > 0) return { objects: flags.objects, namespace };
  if (files.length > 0) return { files, recursive: Boolean(flags.recursive), namespace };
  if (flags['all-namespaces']) return { allNamespaces: true };
  return { namespace };
}
