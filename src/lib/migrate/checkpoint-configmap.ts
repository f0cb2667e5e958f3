import { createHash } from 'node:crypto';
import { AsoError } from '../errors.ts';
import { parseJson } from '../json/parse-json.ts';
import type { KubeClient } from '../kube/client.ts';
import { Conflict, NotFound } from '../kube/errors.ts';
import { resourcePath } from '../kube/paths.ts';
import { withBackoff } from './backoff.ts';
import type { CheckpointStore, CrdCheckpoint } from './checkpoint.ts';

/**
 * Where the state ConfigMaps go without `--state-namespace`: `default` exists on every cluster and does not
 * depend on the kubeconfig context, so a rerun from another context still finds the state.
 */
export const defaultStateNamespace = 'default';

const configMaps = { group: '', version: 'v1', plural: 'configmaps' };
const dataKey = 'checkpoint.json';

interface ConfigMap {
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  data?: Record<string, string>;
}

/** Another run wrote the same CRD's state after this one read it: two runs must not interleave. */
export class ConcurrentRun extends AsoError {
  constructor(where: string) {
    super(
      'conflict',
      `the migration state ${where} was changed by someone else during this run`,
      'make sure only one kubectl aso migrate runs at a time, then rerun',
    );
  }
}

/** The ConfigMap name for a CRD's state: readable when it fits, a hash of the CRD name when it does not. */
export function stateConfigMapName(crd: string): string {
  const name = `kubectl-aso-migrate.${crd}`;
  if (name.length <= 253) return name;
  return `kubectl-aso-migrate.${createHash('sha256').update(crd).digest('hex').slice(0, 32)}`;
}

/** Checkpoints in ConfigMaps, one per CRD, each replaced only at the resourceVersion this run last saw. */
export class ConfigMapCheckpointStore implements CheckpointStore {
  readonly where: string;
  private readonly versions = new Map<string, string | undefined>();
  private readonly client: KubeClient;
  private readonly namespace: string;

  constructor(client: KubeClient, namespace: string) {
    this.client = client;
    this.namespace = namespace;
    this.where = `ConfigMaps kubectl-aso-migrate.* in namespace ${namespace}`;
  }

  private get(name: string): Promise<ConfigMap> {
    return withBackoff(() =>
      this.client.request<ConfigMap>({
        path: resourcePath(configMaps, this.namespace, name),
        subject: { verb: 'get', resource: `configmaps/${name}`, namespace: this.namespace },
      }),
    );
  }

  async load(crd: string): Promise<CrdCheckpoint | undefined> {
    const name = stateConfigMapName(crd);
    try {
      const found = await this.get(name);
      this.versions.set(crd, found.metadata.resourceVersion);
      const text = found.data?.[dataKey];
      return text ? (parseJson(text) as CrdCheckpoint) : undefined;
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      this.versions.set(crd, undefined);
      return undefined;
    }
  }

  /**
   * Saves with backoff through a busy or restarting API server. A conflict (409 on update, or "already
   * exists" on create) is either another run, or this run's own write whose answer was lost and which was
   * then sent again: the ConfigMap is read back and, when it holds exactly this checkpoint, that is success.
   */
  async save(checkpoint: CrdCheckpoint): Promise<void> {
    const name = stateConfigMapName(checkpoint.crd);
    const resourceVersion = this.versions.get(checkpoint.crd);
    const text = JSON.stringify(checkpoint);
    const body: ConfigMap = {
      metadata: {
        name,
        namespace: this.namespace,
        labels: { 'app.kubernetes.io/managed-by': 'kubectl-aso' },
        annotations: { 'kubectl-aso/crd': checkpoint.crd },
        ...(resourceVersion ? { resourceVersion } : {}),
      },
      data: { [dataKey]: text },
    };
    const subject = {
      verb: resourceVersion ? 'update' : 'create',
      resource: `configmaps/${name}`,
      namespace: this.namespace,
    };
    try {
      const saved = await withBackoff(() =>
        this.client.request<ConfigMap>({
          method: resourceVersion ? 'PUT' : 'POST',
          path: resourceVersion
            ? resourcePath(configMaps, this.namespace, name)
            : resourcePath(configMaps, this.namespace),
          body: { apiVersion: 'v1', kind: 'ConfigMap', ...body },
          subject,
        }),
      );
      this.versions.set(checkpoint.crd, saved.metadata.resourceVersion);
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      const found = await this.get(name).catch(() => undefined);
      if (found?.data?.[dataKey] !== text) throw new ConcurrentRun(`configmap ${this.namespace}/${name}`);
      this.versions.set(checkpoint.crd, found.metadata.resourceVersion);
    }
  }

  async clear(crd: string): Promise<void> {
    const name = stateConfigMapName(crd);
    try {
      await withBackoff(() =>
        this.client.request({
          method: 'DELETE',
          path: resourcePath(configMaps, this.namespace, name),
          subject: { verb: 'delete', resource: `configmaps/${name}`, namespace: this.namespace },
        }),
      );
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
    this.versions.delete(crd);
  }
}
