import { AsoError } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { Forbidden } from '../kube/errors.ts';
import type { Crd } from '../migrate/crds.ts';
import { releaseName } from './hops.ts';

/** The label the operator's install puts on its CRDs and Deployment, naming its release. */
export const versionLabel = 'app.kubernetes.io/version';

/** One ASO CRD as the upgrade check reads it. */
export interface InstalledCrd {
  /** `plural.group`. */
  readonly name: string;
  /** `group/Kind`, as the release catalog names kinds. */
  readonly kind: string;
  /** The release its `app.kubernetes.io/version` label names, when it has one. */
  readonly release?: string;
  readonly storage: string;
  readonly storedVersions: readonly string[];
}

/** The operator's Deployment: where it runs, its image, and how it manages CRDs. */
export interface OperatorDeployment {
  readonly namespace: string;
  readonly name: string;
  readonly image: string;
  /** The release its image tag names (`v2.18.0`), when the tag is a release. */
  readonly release?: string;
  /** `--crd-management`: `auto` (the operator's default) installs and upgrades its CRDs; `none` leaves them. */
  readonly crdManagement: string;
  /** `--crd-pattern`, split on `;`: the CRDs it installs besides those already in the cluster. */
  readonly crdPatterns: readonly string[];
}

/** What the cluster runs: the operator's release, where it was read, its Deployment and CRDs. */
export interface InstalledOperator {
  readonly release: string;
  /** Where the release was read: the Deployment's image tag, or the CRDs' labels. */
  readonly releaseFrom: 'image' | 'crd-labels';
  readonly deployment?: OperatorDeployment;
  /** Why the Deployment was not read, when it was not (none found, or RBAC forbids listing Deployments). */
  readonly deploymentUnread?: string;
  readonly crds: readonly InstalledCrd[];
}

/** A cluster without any ASO CRD: there is nothing to upgrade, or the context is the wrong one. */
export class NoAsoCrds extends AsoError {
  constructor(server: string) {
    super(
      'notFound',
      `the cluster at ${server} has no ASO CRDs (none in a group ending in .azure.com)`,
      'pick the cluster ASO runs in with --context',
    );
  }
}

/**
 * CRDs of several releases and no Deployment image to settle it: the check does not guess which release
 * is installed, and names which CRDs carry which release.
 */
export class MixedReleases extends AsoError {
  readonly releases: Readonly<Record<string, readonly string[]>>;
  constructor(releases: Readonly<Record<string, readonly string[]>>) {
    const ordered = Object.entries(releases).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    const parts = ordered.map(
      ([release, crds]) =>
        `${release}: ${crds.length} CRDs (${crds.slice(0, 3).join(', ')}${crds.length > 3 ? ', ...' : ''})`,
    );
    super(
      'invalidInput',
      `the ASO CRDs are of several releases: ${parts.join('; ')}`,
      'name the installed release with --from',
    );
    this.releases = releases;
  }
}

/** The release cannot be read at all: no Deployment image and no labelled CRD. */
export class ReleaseUnknown extends AsoError {
  constructor(why: string) {
    super('invalidInput', `cannot tell which ASO release the cluster runs: ${why}`, 'name it with --from');
  }
}

interface DeploymentList {
  items: Array<{
    metadata: { name: string; namespace: string };
    spec?: {
      template?: { spec?: { containers?: Array<{ name?: string; image?: string; args?: string[] }> } };
    };
  }>;
}

/**
 * Reads what the cluster runs: every CRD of a group ending in `.azure.com` (its release label, storage
 * version and `status.storedVersions`) and the operator's Deployment (label
 * `app.kubernetes.io/name=azure-service-operator`, any namespace). The release is the Deployment image's
 * tag when it names one, else the one release every labelled CRD names; several are {@link MixedReleases}.
 * Only reads.
 */
export async function installedOperator(client: KubeClient): Promise<InstalledOperator> {
  const list = await client.request<{ items: Crd[] }>({
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    subject: { verb: 'list', resource: 'customresourcedefinitions' },
  });
  const crds = list.items
    .filter((crd) => crd.spec.group.endsWith('.azure.com'))
    .map((crd): InstalledCrd => {
      const label = (crd.metadata as { labels?: Record<string, string> }).labels?.[versionLabel];
      return {
        name: crd.metadata.name,
        kind: `${crd.spec.group}/${crd.spec.names.kind}`,
        ...(label ? { release: releaseName(label) } : {}),
        storage: crd.spec.versions.find((v) => v.storage)?.name ?? '',
        storedVersions: crd.status?.storedVersions ?? [],
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (crds.length === 0) throw new NoAsoCrds(client.server);
  const { deployment, unread } = await operatorDeployment(client);
  if (deployment?.release !== undefined)
    return { release: deployment.release, releaseFrom: 'image', deployment, crds };
  const byRelease: Record<string, string[]> = {};
  for (const crd of crds) {
    if (crd.release === undefined) continue;
    const names = byRelease[crd.release] ?? [];
    names.push(crd.name);
    byRelease[crd.release] = names;
  }
  const releases = Object.keys(byRelease);
  if (releases.length > 1) throw new MixedReleases(byRelease);
  const [release] = releases;
  if (release === undefined)
    throw new ReleaseUnknown(
      `${unread ?? 'its Deployment image names no release'}, and no ASO CRD carries ${versionLabel}`,
    );
  return {
    release,
    releaseFrom: 'crd-labels',
    ...(deployment ? { deployment } : {}),
    ...(unread ? { deploymentUnread: unread } : {}),
    crds,
  };
}

async function operatorDeployment(
  client: KubeClient,
): Promise<{ deployment?: OperatorDeployment; unread?: string }> {
  let list: DeploymentList;
  try {
    list = await client.request<DeploymentList>({
      path: '/apis/apps/v1/deployments',
      query: { labelSelector: 'app.kubernetes.io/name=azure-service-operator' },
      subject: { verb: 'list', resource: 'deployments' },
    });
  } catch (error) {
    if (error instanceof Forbidden) return { unread: 'listing Deployments is forbidden' };
    throw error;
  }
  for (const item of list.items) {
    const containers = item.spec?.template?.spec?.containers ?? [];
    const manager = containers.find((c) => c.image?.includes('azureserviceoperator')) ?? containers[0];
    if (manager?.image === undefined) continue;
    const tag = /:(v?\d+\.\d+\.\d+)$/.exec(manager.image)?.[1];
    const args = manager.args ?? [];
    const flag = (name: string) =>
      args.flatMap((arg, i) =>
        arg.startsWith(`--${name}=`)
          ? [arg.slice(name.length + 3)]
          : arg === `--${name}`
            ? [args[i + 1] ?? '']
            : [],
      )[0];
    const patterns = flag('crd-pattern') ?? '';
    return {
      deployment: {
        namespace: item.metadata.namespace,
        name: item.metadata.name,
        image: manager.image,
        ...(tag ? { release: releaseName(tag) } : {}),
        crdManagement: flag('crd-management') ?? 'auto',
        crdPatterns: patterns
          .split(';')
          .map((p) => p.trim())
          .filter((p) => p !== ''),
      },
    };
  }
  return { unread: 'no Deployment labelled app.kubernetes.io/name=azure-service-operator' };
}
