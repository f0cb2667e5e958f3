import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

/** One context of a generated kubeconfig: a user authenticated by a client certificate. */
export interface KubeconfigUser {
  context: string;
  cert: string;
  key: string;
}

/** Writes a kubeconfig for the local plane with one context per user; the first is current. */
export function writeKubeconfig(path: string, server: string, caCert: string, users: KubeconfigUser[]): void {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubectl-aso-local', cluster: { server, 'certificate-authority': caCert } }],
    users: users.map((user) => ({
      name: user.context,
      user: { 'client-certificate': user.cert, 'client-key': user.key },
    })),
    contexts: users.map((user) => ({
      name: user.context,
      context: { cluster: 'kubectl-aso-local', user: user.context, namespace: 'default' },
    })),
    'current-context': users[0]?.context ?? '',
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
}
