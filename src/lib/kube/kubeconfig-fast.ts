import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import { KubeconfigFileUnreadable } from './errors.ts';
import { type KubeconfigEntry, readFailure } from './kubeconfig-merge.ts';

/** What a request needs from a kubeconfig: its TLS and authorization applied to the request options. */
export interface HttpsOptionsSource {
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}

// The keys the fast path understands; a cluster or user with any other key goes to the client library.
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
  'token-file',
  'extensions',
]);

function bytes(data: unknown, path: unknown): Buffer | undefined {
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64');
  if (typeof path === 'string' && path !== '') return readFileSync(path);
  return undefined;
}

/**
 * Why the certificate authority, client certificate or client key given in a kubeconfig is unusable, or
 * undefined when Node accepts them. Node would only find out when it first connects, as an OpenSSL error
 * that names no kubeconfig entry; this checks them before any request. The answer carries OpenSSL's reason
 * alone, never the bytes, since a client key is a secret.
 */
export function tlsMaterialProblem(cluster: KubeconfigEntry, user: KubeconfigEntry): string | undefined {
  const ca = bytes(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = bytes(user['client-certificate-data'], user['client-certificate']);
  const key = bytes(user['client-key-data'], user['client-key']);
  const attempts: Array<[string, () => void]> = [
    ['its certificate authority is not a PEM certificate', () => ca && createSecureContext({ ca })],
    [
      'its client certificate and key are not a PEM certificate and its private key',
      () => (cert || key) && createSecureContext({ cert, key }),
    ],
  ];
  for (const [problem, attempt] of attempts) {
    try {
      attempt();
    } catch (error) {
      const reason = (error as { reason?: unknown }).reason;
      return typeof reason === 'string' && reason !== '' ? `${problem} (${reason})` : problem;
    }
  }
  return undefined;
}

/**
 * Credentials for the common kubeconfig users (client certificates or a bearer token, with a CA or
 * insecure-skip-tls-verify) without loading @kubernetes/client-node, whose import alone costs more than a
 * whole `kubectl get` on an empty cluster. Anything else (exec and auth-provider plugins, basic auth,
 * proxies, impersonation, tls-server-name) returns undefined and takes the client library's path. Paths
 * are already absolute (see `kubeconfig-merge.ts`); a token file is read on every request, so a rotated
 * token is picked up by long watches (one that has gone is a kubeconfig error naming it, `contextName`
 * included when given).
 */
export function fastCredentials(
  cluster: KubeconfigEntry,
  user: KubeconfigEntry,
  contextName?: string,
): HttpsOptionsSource | undefined {
  if (Object.keys(cluster).some((key) => !clusterKeys.has(key))) return undefined;
  if (Object.keys(user).some((key) => !userKeys.has(key))) return undefined;
  const ca = bytes(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = bytes(user['client-certificate-data'], user['client-certificate']);
  const key = bytes(user['client-key-data'], user['client-key']);
  const token = typeof user.token === 'string' && user.token !== '' ? user.token : undefined;
  const tokenFile = [user.tokenFile, user['token-file']].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (!token && !tokenFile && !(cert && key)) return undefined;
  const agent = new https.Agent({
    keepAlive: true,
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
    rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
  });
  return {
    async applyToHTTPSOptions(options) {
      options.agent = agent;
      const bearer = token ?? (tokenFile ? readToken(tokenFile, contextName) : undefined);
      if (bearer) options.headers = { ...options.headers, authorization: `Bearer ${bearer}` };
    },
  };
}

/**
 * The bearer token in `file`, trimmed as kubectl trims it. Read on every request by both credential paths,
 * because service-account and workload-identity tokens are rotated under a running process.
 */
export function readToken(file: string, contextName: string | undefined): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new KubeconfigFileUnreadable(contextName, 'user', 'tokenFile', file, readFailure(error));
  }
}
