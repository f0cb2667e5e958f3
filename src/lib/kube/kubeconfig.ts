import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeconfigInvalid, KubeconfigMissing, UnknownContext } from './errors.ts';
import { type HttpsOptionsSource, resolveFast } from './kubeconfig-fast.ts';

/** What the user said about where the cluster is: the kubectl flags every command shares. */
export interface KubeconfigOptions {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  namespace?: string | undefined;
  /** Milliseconds; 0 or undefined means no limit beyond the server's own. */
  requestTimeoutMs?: number | undefined;
}

/** A kubeconfig resolved to one context: everything a request needs except the credentials themselves. */
export interface ResolvedKubeconfig {
  /** The TLS and credentials of the context: a client-node KubeConfig, or the fast path's equivalent. */
  config: HttpsOptionsSource;
  contextName: string;
  server: string;
  /** The namespace from `-n`, else the context's, else `default`. */
  namespace: string;
  requestTimeoutMs: number;
}

/**
 * The kubeconfig files to read, in kubectl's order: `--kubeconfig`, else every existing file of
 * KUBECONFIG, else ~/.kube/config. Files named in KUBECONFIG that do not exist are skipped as kubectl
 * does, but if none exists the user hears which ones were tried.
 */
export function kubeconfigFiles(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string[] {
  if (flag) {
    if (!existsSync(flag)) throw new KubeconfigMissing([flag]);
    return [flag];
  }
  const fromEnv = (env.KUBECONFIG ?? '').split(delimiter).filter((file) => file.length > 0);
  if (fromEnv.length > 0) {
    const present = fromEnv.filter((file) => existsSync(file));
    if (present.length === 0) throw new KubeconfigMissing(fromEnv);
    return present;
  }
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  if (!existsSync(home)) throw new KubeconfigMissing([]);
  return [home];
}

/**
 * Loads and merges the kubeconfig files, selects the context and resolves the namespace. Plain kubeconfigs
 * (certificates or a token) take the fast path of `kubeconfig-fast.ts`; anything else, and every error, goes
 * through the client library, imported here lazily because its import alone costs hundreds of milliseconds.
 */
export async function resolveKubeconfig(options: KubeconfigOptions): Promise<ResolvedKubeconfig> {
  const files = kubeconfigFiles(options.kubeconfig);
  const fast = await resolveFast(files, options.context);
  if (fast) {
    return {
      config: fast.config,
      contextName: fast.contextName,
      server: fast.server.replace(/\/+$/, ''),
      namespace: options.namespace ?? fast.contextNamespace ?? 'default',
      requestTimeoutMs: options.requestTimeoutMs ?? 0,
    };
  }
  const { KubeConfig } = await import('@kubernetes/client-node');
  const config = new KubeConfig();
  for (const [index, file] of files.entries()) {
    try {
      if (index === 0) {
        config.loadFromFile(file);
      } else {
        const next = new KubeConfig();
        next.loadFromFile(file);
        config.mergeConfig(next, true);
      }
    } catch (error) {
      throw new KubeconfigInvalid(file, error instanceof Error ? error.message : String(error));
    }
  }
  const contextName = options.context ?? config.getCurrentContext();
  const known = config.getContexts().map((context) => context.name);
  if (!contextName) {
    throw new KubeconfigInvalid(files.join(', '), 'no current-context is set; pass --context');
  }
  const context = config.getContextObject(contextName);
  if (!context) throw new UnknownContext(contextName, known);
  config.setCurrentContext(contextName);
  const cluster = config.getCurrentCluster();
  if (!cluster?.server) {
    throw new KubeconfigInvalid(
      files.join(', '),
      `context "${contextName}" names cluster "${context.cluster}", which has no server`,
    );
  }
  return {
    config,
    contextName,
    server: cluster.server.replace(/\/+$/, ''),
    namespace: options.namespace ?? context.namespace ?? 'default',
    requestTimeoutMs: options.requestTimeoutMs ?? 0,
  };
}
