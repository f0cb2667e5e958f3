import { KubeClient } from './client.ts';
import { type KubeconfigOptions, resolveKubeconfig } from './kubeconfig.ts';

/** A client for the cluster the kubectl flags point at. */
export async function connect(options: KubeconfigOptions): Promise<KubeClient> {
  return new KubeClient(await resolveKubeconfig(options));
}
