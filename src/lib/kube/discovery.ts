import type { KubeClient } from './client.ts';
import type { ResourceType } from './paths.ts';

/** A resource type the server serves, as discovery describes it, at one version. */
export interface ServedResource extends ResourceType {
  kind: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  verbs: string[];
}

interface DiscoveryResource {
  resource: string;
  responseKind?: { kind?: string };
  scope?: string;
  singularResource?: string;
  shortNames?: string[];
  verbs?: string[];
}

interface AggregatedList {
  kind?: string;
  items?: Array<{
    metadata?: { name?: string };
    versions?: Array<{ version: string; resources?: DiscoveryResource[] }>;
  }>;
}

interface GroupList {
  groups?: Array<{ name: string; versions: Array<{ version: string }> }>;
}

interface ResourceList {
  resources?: Array<{
    name: string;
    kind: string;
    namespaced: boolean;
    singularName?: string;
    shortNames?: string[];
    verbs?: string[];
  }>;
}

const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

/**
 * Every resource type of the API groups that `wantGroup` accepts, each once, at the first version of its
 * group's preference order that serves it (the version kubectl uses). Subresources are left out. One
 * request on servers with aggregated discovery (Kubernetes 1.30+); otherwise one for the group list and
 * one per version of each accepted group. Any authenticated user may read discovery.
 */
export async function discoverResources(
  client: KubeClient,
  wantGroup: (group: string) => boolean,
): Promise<ServedResource[]> {
  const answer = await client.request<AggregatedList & GroupList>({
    path: '/apis',
    accept: aggregated,
    subject: { verb: 'get', resource: 'API discovery (/apis)' },
  });
  const byVersion: Array<{ group: string; version: string; resources: ServedResource[] }> = [];
  if (answer.kind === 'APIGroupDiscoveryList') {
    for (const item of answer.items ?? []) {
      const group = item.metadata?.name ?? '';
      if (!wantGroup(group)) continue;
      for (const version of item.versions ?? []) {
        byVersion.push({
          group,
          version: version.version,
          resources: (version.resources ?? []).map((resource) => ({
            group,
            version: version.version,
            plural: resource.resource,
            kind: resource.responseKind?.kind ?? '',
            singular: resource.singularResource ?? '',
            shortNames: resource.shortNames ?? [],
            namespaced: resource.scope !== 'Cluster',
            verbs: resource.verbs ?? [],
          })),
        });
      }
    }
  } else {
    const wanted = (answer.groups ?? []).filter((group) => wantGroup(group.name));
    const lists = await Promise.all(
      wanted.flatMap((group) =>
        group.versions.map(async ({ version }) => {
          const list = await client.request<ResourceList>({
            path: `/apis/${group.name}/${version}`,
            subject: { verb: 'get', resource: `API discovery (/apis/${group.name}/${version})` },
          });
          return {
            group: group.name,
            version,
            resources: (list.resources ?? [])
              .filter((resource) => !resource.name.includes('/'))
              .map((resource) => ({
                group: group.name,
                version,
                plural: resource.name,
                kind: resource.kind,
                singular: resource.singularName ?? '',
                shortNames: resource.shortNames ?? [],
                namespaced: resource.namespaced,
                verbs: resource.verbs ?? [],
              })),
          };
        }),
      ),
    );
    byVersion.push(...lists);
  }
  const chosen = new Map<string, ServedResource>();
  for (const { resources } of byVersion) {
    for (const resource of resources) {
      const key = `${resource.plural}.${resource.group}`;
      if (!chosen.has(key)) chosen.set(key, resource);
    }
  }
  return [...chosen.values()];
}
