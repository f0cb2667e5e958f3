import { AsoError, UsageError } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { type ManifestSet, readManifests } from '../manifests/read.ts';
import type { CrdLike } from './kind-arm.ts';
import { checkCataloguedTypes } from './manifest-types.ts';

/** The flags and arguments that say what adopt-check plans for, as parsed. */
export interface AdoptInputFlags {
  filename?: string[] | undefined;
  recursive?: boolean | undefined;
  fromCluster: boolean;
  objects: readonly string[];
  namespace?: string | undefined;
  'all-namespaces'?: boolean | undefined;
  selector?: string | undefined;
  credential: string;
  subscription?: string | undefined;
  concurrency: number;
}

/** What adopt-check plans for, the cluster when one is reachable, and what could not be read. */
export interface AdoptInput {
  set: ManifestSet;
  client: KubeClient | undefined;
  warnings: string[];
  /** The cluster's ASO CRDs, when reading the cluster's objects listed them. */
  crds?: CrdLike[];
}

/**
 * Files (`-f`) or the objects already in the cluster (`--from-cluster`, narrowed by `-n`, `-A`, `-l` and
 * `KIND/NAME`): exactly one of the two, and the cluster's narrowing only with the cluster, so that a flag
 * that would be ignored is refused instead. Files are read and checked before the cluster is reached;
 * without a cluster, files still plan with `--credential local --subscription`.
 */
export async function adoptInputOf(
  flags: AdoptInputFlags,
  connectCluster: () => Promise<KubeClient>,
): Promise<AdoptInput> {
  if (adoptSourceOf(flags) === 'cluster') {
    const client = await connectCluster();
    const { clusterAdoptSet } = await import('./cluster-set.ts');
    const read = await clusterAdoptSet(client, {
      namespace: flags.namespace || client.kubeconfig.namespace || 'default',
      allNamespaces: Boolean(flags['all-namespaces']),
      labelSelector: flags.selector,
      objects: flags.objects,
      concurrency: flags.concurrency,
    });
    return { set: read.set, client, warnings: read.warnings, crds: read.crds };
  }
  const set = readManifests({ files: flags.filename ?? [], recursive: Boolean(flags.recursive) });
  await checkCataloguedTypes(set);
  try {
    return { set, client: await connectCluster(), warnings: [] };
  } catch (error) {
    if (!(error instanceof AsoError) || flags.credential === 'operator') throw error;
    if (!flags.subscription) throw new UsageError('without a cluster, give --subscription');
    return { set, client: undefined, warnings: [] };
  }
}

/** Which input the flags name; refuses both, neither, and cluster flags given with files. */
export function adoptSourceOf(flags: AdoptInputFlags): 'files' | 'cluster' {
  const files = (flags.filename ?? []).length > 0;
  if (files && flags.fromCluster) throw new UsageError('give -f FILE or --from-cluster, not both');
  if (!files && !flags.fromCluster)
    throw new UsageError('give -f FILE (or --from-cluster for what is applied)');
  if (!flags.fromCluster) {
    const clusterOnly = [
      flags.objects.length > 0 ? `KIND/NAME (${flags.objects[0]})` : '',
      flags['all-namespaces'] ? '-A' : '',
      flags.selector !== undefined ? '-l' : '',
    ].filter((given) => given !== '');
    if (clusterOnly.length > 0) throw new UsageError(`${clusterOnly.join(', ')}: only with --from-cluster`);
    return 'files';
  }
  if (flags['all-namespaces'] && flags.objects.length > 0)
    throw new UsageError('give KIND/NAME or -A, not both: KIND/NAME names objects in one namespace');
  return 'cluster';
}
