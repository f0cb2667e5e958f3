import { parseDuration } from '../duration.ts';
import { connect } from '../kube/connect.ts';
import { kubeconfigFiles } from '../kube/kubeconfig.ts';
import { mergeKubeconfigFiles } from '../kube/kubeconfig-merge.ts';
import type { KubeObject } from '../kube/list.ts';
import { discoverAsoKinds } from '../status/kinds.ts';
import type { CompletionPlan, DynamicValues } from './completion.ts';

/**
 * How long a tab may wait for the cluster when no `--request-timeout` was typed: long enough for one or
 * two requests to a cluster across the internet, short enough that an unreachable one costs a pause,
 * not a hang.
 */
export const defaultCompletionTimeoutMs = 2000;

/** The time budget for one completion: the typed `--request-timeout` when it is a usable duration. */
export function completionTimeoutMs(requestTimeout: string | undefined): number {
  if (requestTimeout === undefined) return defaultCompletionTimeoutMs;
  try {
    const ms = parseDuration(requestTimeout, 'request-timeout');
    return ms > 0 ? ms : defaultCompletionTimeoutMs;
  } catch {
    return defaultCompletionTimeoutMs;
  }
}

/**
 * Every value of one kind the kubeconfig or cluster knows, for the flags typed so far. A tab must never
 * print an error into the user's command line: anything that fails or takes longer than the budget gives
 * no values.
 */
export async function dynamicValues(
  values: DynamicValues,
  connection: CompletionPlan['connection'],
): Promise<string[]> {
  const timeoutMs = completionTimeoutMs(connection.requestTimeout);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
  });
  try {
    return await Promise.race([fetchValues(values, connection, timeoutMs).catch(() => []), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchValues(
  values: DynamicValues,
  connection: CompletionPlan['connection'],
  timeoutMs: number,
): Promise<string[]> {
  if (values === 'contexts') {
    const merged = await mergeKubeconfigFiles(kubeconfigFiles(connection.kubeconfig));
    return [...merged.contexts.keys()].sort();
  }
  const client = await connect({
    kubeconfig: connection.kubeconfig,
    context: connection.context,
    requestTimeoutMs: timeoutMs,
  });
  if (values === 'namespaces') {
    const list = await client.request<{ items: KubeObject[] }>({
      path: '/api/v1/namespaces',
      subject: { verb: 'list', resource: 'namespaces' },
    });
    return list.items.map((item) => item.metadata.name).sort();
  }
  // A kind is offered by its name, and by plural and short names when those are what is being typed.
  return (await discoverAsoKinds(client)).flatMap((kind) => [kind.kind, kind.plural, ...kind.shortNames]);
}

/**
 * The values to offer for `typed`: those that start with it. With nothing typed, kinds are offered by
 * their Kind only (plurals and short names would triple the list); a shell filters case-sensitively, so
 * a lowercase `res` is answered with the plural `resourcegroups`, which it keeps.
 */
export function matchingValues(values: DynamicValues, all: readonly string[], typed: string): string[] {
  const unique = [...new Set(all)];
  if (values === 'kinds' && typed === '') return unique.filter((name) => /^[A-Z]/.test(name)).sort();
  return unique.filter((value) => value.startsWith(typed)).sort();
}
