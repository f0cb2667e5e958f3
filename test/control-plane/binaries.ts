import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Where the built kube-apiserver and etcd are. */
export interface PlaneBinaries {
  dir: string;
  etcd: string;
  kubeApiserver: string;
}

/**
 * Builds (or finds in the cache) kube-apiserver and etcd through `build.sh`, the wrapper Go module beside
 * this file. The first build takes minutes; later ones are instant.
 */
export function ensureBinaries(): PlaneBinaries {
  const script = new URL('./build.sh', import.meta.url).pathname;
  const dir =
    execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      .trim()
      .split('\n')
      .pop() ?? '';
  return { dir, etcd: join(dir, 'etcd'), kubeApiserver: join(dir, 'kube-apiserver') };
}
