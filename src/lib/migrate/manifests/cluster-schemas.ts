import { AsoError } from '../../errors.ts';
import type { KubeClient } from '../../kube/client.ts';
import { connect } from '../../kube/connect.ts';
import { NotFound } from '../../kube/errors.ts';
import type { KubeconfigOptions } from '../../kube/kubeconfig.ts';
import { discoverAsoKinds } from '../../status/kinds.ts';
import { readCrd } from '../crds.ts';
import type { CrdLookup, CrdSchemas, CrdSchemaVersion } from './convert-object.ts';

/**
 * How long a schema lookup waits for a cluster that accepts connections but does not answer, when
 * `--request-timeout` sets no limit: the check is optional, so a cluster that hangs must not stall a
 * manifest conversion that can go on without it (its renames reported unverified).
 */
export const schemaLookupTimeoutMs = 10_000;

/** A client for the schema lookups: the kubectl flags' cluster, with {@link schemaLookupTimeoutMs} by default. */
export function connectForSchemas(
  options: KubeconfigOptions,
  timeoutMs = schemaLookupTimeoutMs,
): Promise<KubeClient> {
  return connect({ ...options, requestTimeoutMs: options.requestTimeoutMs || timeoutMs });
}

/**
 * The schemas of kinds the catalog lacks, read from the cluster's CRDs. The cluster is contacted only
 * when the first such kind is looked up, and once it has failed (no kubeconfig, unreachable, forbidden)
 * every lookup answers why, so renames go on unverified instead of failing the run.
 */
export function clusterSchemas(connect: () => Promise<KubeClient>): CrdSchemas {
  let plurals: Promise<Map<string, string> | string> | undefined;
  let client: KubeClient | undefined;
  const crds = new Map<string, Promise<CrdLookup>>();
  const discover = async (): Promise<Map<string, string> | string> => {
    try {
      client = await connect();
      const kinds = await discoverAsoKinds(client);
      return new Map(kinds.map((kind) => [`${kind.kind}.${kind.group}`, `${kind.plural}.${kind.group}`]));
    } catch (error) {
      if (error instanceof AsoError) return `no cluster to check against (${error.message})`;
      throw error;
    }
  };
  const read = async (group: string, kind: string): Promise<CrdLookup> => {
    plurals ??= discover();
    const known = await plurals;
    if (typeof known === 'string' || !client)
      return { unknown: typeof known === 'string' ? known : 'no cluster' };
    const name = known.get(`${kind}.${group}`);
    if (!name) return { unknown: `the cluster serves no ${kind}.${group}` };
    try {
      const crd = await readCrd(client, name);
      return { versions: crd.spec.versions as CrdSchemaVersion[] };
    } catch (error) {
      if (error instanceof NotFound) return { unknown: `the cluster has no CRD ${name}` };
      if (error instanceof AsoError) return { unknown: `could not read the CRD ${name} (${error.message})` };
      throw error;
    }
  };
  return {
    lookup(group, kind) {
      const key = `${kind}.${group}`;
      let found = crds.get(key);
      if (!found) {
        found = read(group, kind);
        crds.set(key, found);
      }
      return found;
    },
  };
}
