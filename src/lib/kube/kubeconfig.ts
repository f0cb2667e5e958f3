import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { AsoError } from '../errors.ts';
import { ExecPluginUnavailable, KubeconfigInvalid, KubeconfigMissing, UnknownContext } from './errors.ts';
import {
  fastCredentials,
  type HttpsOptionsSource,
  readToken,
  tlsMaterialProblem,
} from './kubeconfig-fast.ts';
import { asKubeconfigDocument, checkKubeconfigFiles, mergeKubeconfigFiles } from './kubeconfig-merge.ts';

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
 * Loads and merges the kubeconfig files (as kubectl does), selects the context and resolves the namespace.
 * Plain users (certificates or a token) take the fast path of `kubeconfig-fast.ts`; anything else (exec
 * plugins, auth providers, proxies, impersonation) goes through the client library, imported here lazily
 * because its import alone costs hundreds of milliseconds.
 */
export async function resolveKubeconfig(options: KubeconfigOptions): Promise<ResolvedKubeconfig> {
  const files = kubeconfigFiles(options.kubeconfig);
  const merged = await mergeKubeconfigFiles(files);
  const sources = files.join(', ');
  const contextName = options.context ?? merged.currentContext;
  if (!contextName) throw new KubeconfigInvalid(sources, 'no current-context is set; pass --context');
  const context = merged.contexts.get(contextName);
  if (!context) throw new UnknownContext(contextName, [...merged.contexts.keys()]);
  const clusterName = String(context.cluster ?? '');
  const cluster = merged.clusters.get(clusterName);
  if (typeof cluster?.server !== 'string' || cluster.server === '') {
    throw new KubeconfigInvalid(
      sources,
      `context "${contextName}" names cluster "${clusterName}", which has no server`,
    );
  }
  checkServerUrl(sources, clusterName, cluster.server);
  const hasCa = Boolean(cluster['certificate-authority'] || cluster['certificate-authority-data']);
  if (hasCa && cluster['insecure-skip-tls-verify'] === true) {
    throw new KubeconfigInvalid(
      sources,
      `cluster "${clusterName}" sets both a certificate authority and insecure-skip-tls-verify; kubectl refuses that too`,
    );
  }
  const userName = String(context.user ?? '');
  const user = merged.users.get(userName) ?? {};
  const namespace =
    options.namespace ??
    (typeof context.namespace === 'string' && context.namespace !== '' ? context.namespace : 'default');
  const resolved = {
    contextName,
    server: cluster.server.replace(/\/+$/, ''),
    namespace,
    requestTimeoutMs: options.requestTimeoutMs ?? 0,
  };
  checkKubeconfigFiles(contextName, [
    { section: 'cluster', name: clusterName, entry: cluster },
    { section: 'user', name: userName, entry: user },
  ]);
  const tlsProblem = tlsMaterialProblem(cluster, user);
  if (tlsProblem) {
    throw new KubeconfigInvalid(
      sources,
      `context "${contextName}" (cluster "${clusterName}", user "${userName}"): ${tlsProblem}`,
    );
  }
  const fast = fastCredentials(cluster, user, contextName);
  if (fast) return { ...resolved, config: withCredentialFailureNamed(fast, sources, userName, contextName) };
  const { KubeConfig } = await import('@kubernetes/client-node');
  const config = new KubeConfig();
  try {
    // JSON is YAML: the client library parses the merged document with its own reader.
    config.loadFromString(JSON.stringify(asKubeconfigDocument(merged, contextName)));
  } catch (error) {
    throw new KubeconfigInvalid(sources, error instanceof Error ? error.message : String(error));
  }
  const source = withTokenFileReread(config, user, contextName);
  return {
    ...resolved,
    config: withCredentialFailureNamed(
      withExecFailureNamed(source, user, userName, contextName),
      sources,
      userName,
      contextName,
    ),
  };
}

/** A server that is no http(s) URL is a kubeconfig problem (exit 3), named before any request is tried. */
function checkServerUrl(sources: string, clusterName: string, server: string): void {
  let url: URL | undefined;
  try {
    url = new URL(server);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new KubeconfigInvalid(
      sources,
      `cluster "${clusterName}" has server "${server}", which is no http(s) URL`,
    );
  }
}

/**
 * The client library turns the user's credentials and the cluster's TLS and proxy settings into request
 * options on the first request; what it cannot use there (a key that is no PEM, a proxy-url that is no
 * URL, an exec plugin that fails or prints no credential) is a kubeconfig problem (exit 3) naming the
 * context and user, never an internal error. A plugin's output may hold a secret: a parse failure says so
 * without quoting it.
 */
function withCredentialFailureNamed(
  config: HttpsOptionsSource,
  sources: string,
  userName: string,
  contextName: string,
): HttpsOptionsSource {
  return {
    async applyToHTTPSOptions(options) {
      try {
        await config.applyToHTTPSOptions(options);
      } catch (error) {
        if (error instanceof AsoError) throw error;
        const problem =
          error instanceof SyntaxError
            ? 'the exec plugin printed no valid credential (not JSON)'
            : error instanceof Error && error.message !== ''
              ? error.message
              : 'the exec plugin failed without a message';
        throw new KubeconfigInvalid(
          sources,
          `context "${contextName}", user "${userName}": credentials or TLS settings cannot be used: ${problem}`,
        );
      }
    },
  };
}

/**
 * The client library reads a token file once, at load; a long watch would then carry a rotated-out token
 * until the server rejects it. When the token came from a file (see `asKubeconfigDocument`), each request
 * reads the file again, as the fast path does.
 */
function withTokenFileReread(
  config: HttpsOptionsSource,
  user: Record<string, unknown>,
  contextName: string,
): HttpsOptionsSource {
  const file = [user.tokenFile, user['token-file']].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (file === undefined || user.token !== undefined) return config;
  return {
    async applyToHTTPSOptions(options) {
      await config.applyToHTTPSOptions(options);
      options.headers = { ...options.headers, authorization: `Bearer ${readToken(file, contextName)}` };
    },
  };
}

/**
 * The client library runs an exec plugin on the first request and lets a failed spawn through as a bare
 * `spawn X ENOENT`; that is a kubeconfig problem (exit 3), named by the user entry and the command.
 */
function withExecFailureNamed(
  config: HttpsOptionsSource,
  user: Record<string, unknown>,
  userName: string,
  contextName: string,
): HttpsOptionsSource {
  const exec = user.exec as Record<string, unknown> | undefined;
  const command = typeof exec?.command === 'string' ? exec.command : undefined;
  if (command === undefined) return config;
  return {
    async applyToHTTPSOptions(options) {
      try {
        await config.applyToHTTPSOptions(options);
      } catch (error) {
        const failure = error as NodeJS.ErrnoException;
        if (typeof failure?.syscall === 'string' && failure.syscall.startsWith('spawn'))
          throw new ExecPluginUnavailable(contextName, userName, command, failure.code ?? failure.message);
        throw error;
      }
    },
  };
}
