import { Flags } from '@oclif/core';
import { parseDuration } from '../duration.ts';
import type { KubeconfigOptions } from '../kube/kubeconfig.ts';

/** The kubectl connection flags, spelled as kubectl spells them, shared by every command that talks to a cluster. */
export const kubeFlags = {
  kubeconfig: Flags.string({
    description: 'path to the kubeconfig file (default: KUBECONFIG, then ~/.kube/config)',
    helpGroup: 'CLUSTER',
  }),
  context: Flags.string({ description: 'kubeconfig context to use', helpGroup: 'CLUSTER' }),
  namespace: Flags.string({
    char: 'n',
    description: "namespace (default: the context's namespace)",
    helpGroup: 'CLUSTER',
  }),
  'request-timeout': Flags.string({
    description: 'how long to wait for one API request (e.g. 30s, 1m); 0 waits without limit',
    default: '0',
    helpGroup: 'CLUSTER',
  }),
};

/** Turns parsed connection flags into the options `connect` takes. */
export function kubeconfigOptionsOf(flags: {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  namespace?: string | undefined;
  'request-timeout': string;
}): KubeconfigOptions {
  return {
    kubeconfig: flags.kubeconfig,
    context: flags.context,
    // An empty `-n ""` is passed on as no namespace, so the context's decides where the connection points.
    // It never selects anything by itself: `status` refuses `-n ""` without `-A` as a usage error before
    // connecting (see `selectionFrom`), so it cannot quietly mean "every namespace" or "the context's".
    namespace: flags.namespace === '' ? undefined : flags.namespace,
    requestTimeoutMs: parseDuration(flags['request-timeout'], 'request-timeout'),
  };
}
