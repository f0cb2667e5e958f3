import { readFileSync } from 'node:fs';
import https from 'node:https';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Resolves the common kubeconfigs (client certificates or a bearer token, a CA or insecure-skip-tls-verify)
 * without loading @kubernetes/client-node, whose import alone costs more than a whole `kubectl get` on an
 * empty cluster. Anything else (exec and auth-provider plugins, basic auth, proxies, impersonation, a
 * missing context, unreadable files) returns undefined, and the caller takes the full path, which also
 * produces the precise errors.
 */

interface Named<T> {
  name?: string;
  [key: string]: unknown;
  value?: T;
}

interface ClusterEntry {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  [key: string]: unknown;
}

interface UserEntry {
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  token?: string;
  tokenFile?: string;
  [key: string]: unknown;
}

interface ContextEntry {
  cluster?: string;
  user?: string;
  namespace?: string;
}

interface KubeconfigFile {
  'current-context'?: string;
  clusters?: Array<{ name?: string; cluster?: ClusterEntry }>;
  users?: Array<{ name?: string; user?: UserEntry }>;
  contexts?: Array<{ name?: string; context?: ContextEntry }>;
}

/** What a request needs from a kubeconfig: its TLS and authorization applied to the request options. */
export interface HttpsOptionsSource {
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}

export interface FastKubeconfig {
  config: HttpsOptionsSource;
  contextName: string;
  server: string;
  contextNamespace: string | undefined;
}

const clusterKeys = new Set([
  'server',
  'certificate-authority',
  'certificate-authority-data',
  'insecure-skip-tls-verify',
  'extensions',
]);
const userKeys = new Set([
  'client-certificate',
  'client-certificate-data',
  'client-key',
  'client-key-data',
  'token',
  'tokenFile',
  'extensions',
]);

/** kubectl's merge: the first file that names an entry (or sets current-context) wins. */
function firstNamed<T>(
  files: KubeconfigFile[],
  pick: (file: KubeconfigFile) => Array<Named<T>> | undefined,
  name: string,
) {
  for (const file of files) {
    const found = pick(file)?.find((entry) => entry.name === name);
    if (found) return found;
  }
  return undefined;
}

function bytes(data: string | undefined, path: string | undefined, base: string): Buffer | undefined {
  if (data) return Buffer.from(data, 'base64');
  if (path) return readFileSync(isAbsolute(path) ? path : join(base, path));
  return undefined;
}

/** The fast resolution, or undefined when the full path must be taken. */
export async function resolveFast(
  files: string[],
  contextFlag: string | undefined,
): Promise<FastKubeconfig | undefined> {
  try {
    const { parse } = await import('yaml');
    const parsed = files.map((file) => ({
      file,
      config: (parse(readFileSync(file, 'utf8')) ?? {}) as KubeconfigFile,
    }));
    const configs = parsed.map((entry) => entry.config);
    const contextName =
      contextFlag ?? configs.find((config) => config['current-context'])?.['current-context'];
    if (!contextName) return undefined;
    const context = firstNamed(configs, (config) => config.contexts as Array<Named<never>>, contextName) as
      | { context?: ContextEntry }
      | undefined;
    if (!context?.context?.cluster || !context.context.user) return undefined;
    const clusterName = context.context.cluster;
    const userName = context.context.user;
    const clusterOwner = parsed.find(({ config }) => config.clusters?.some((c) => c.name === clusterName));
    const userOwner = parsed.find(({ config }) => config.users?.some((u) => u.name === userName));
    const cluster = clusterOwner?.config.clusters?.find((c) => c.name === clusterName)?.cluster;
    const user = userOwner?.config.users?.find((u) => u.name === userName)?.user;
    if (!cluster?.server || !user || !clusterOwner || !userOwner) return undefined;
    if (Object.keys(cluster).some((key) => !clusterKeys.has(key))) return undefined;
    if (Object.keys(user).some((key) => !userKeys.has(key))) return undefined;
    const clusterBase = dirname(clusterOwner.file);
    const userBase = dirname(userOwner.file);
    const ca = bytes(cluster['certificate-authority-data'], cluster['certificate-authority'], clusterBase);
    const cert = bytes(user['client-certificate-data'], user['client-certificate'], userBase);
    const key = bytes(user['client-key-data'], user['client-key'], userBase);
    const token =
      user.token ??
      (user.tokenFile
        ? readFileSync(
            isAbsolute(user.tokenFile) ? user.tokenFile : join(userBase, user.tokenFile),
            'utf8',
          ).trim()
        : undefined);
    if (!token && !(cert && key)) return undefined;
    const agent = new https.Agent({
      keepAlive: true,
      ...(ca ? { ca } : {}),
      ...(cert && key ? { cert, key } : {}),
      rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
    });
    return {
      config: {
        async applyToHTTPSOptions(options) {
          options.agent = agent;
          if (token) options.headers = { ...options.headers, authorization: `Bearer ${token}` };
        },
      },
      contextName,
      server: cluster.server,
      contextNamespace: context.context.namespace,
    };
  } catch {
    return undefined;
  }
}
