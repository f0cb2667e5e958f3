import type { CredentialMode } from './arm-reader.ts';
import { lookupOfError, tokenCredentialOf } from './arm-reader.ts';
import { type CredentialSettings, cloudOf } from './credential-settings.ts';
import { azureLibraries } from './libraries.ts';

/** One entry of a resource group's listing: what ARM says is in it. */
export interface ListedResource {
  id: string;
  name: string;
  type: string;
}

/** What listing one resource group gave: its resources, or why there are none to show. */
export type GroupListing =
  | { state: 'listed'; resources: ListedResource[] }
  | { state: 'not-found' }
  | { state: 'forbidden'; message: string }
  | { state: 'error'; message: string };

/** Lists what a resource group holds; read-only by construction (it only lists). */
export interface ResourceGroupLister {
  list(subscription: string, resourceGroup: string): Promise<GroupListing>;
}

/**
 * A lister over `@azure/arm-resources`' `resources.listByResourceGroup` ("Resources - List By Resource
 * Group"), whose pager follows ARM's `nextLink` from page to page, with the credential the operator would
 * use (or the user's login). The SDK's own retries (429 and 5xx, Retry-After) are kept: one listing per
 * group, read once.
 */
export async function resourceGroupListerOf(
  mode: CredentialMode,
  settings: CredentialSettings,
  env: NodeJS.ProcessEnv,
): Promise<ResourceGroupLister> {
  const { ResourceManagementClient } = (await azureLibraries()).armResources;
  const cloud = cloudOf(settings, env);
  const credential = await tokenCredentialOf(mode, settings, env);
  const audience = cloud.audience.replace(/\/+$/, '');
  return {
    async list(subscription, resourceGroup) {
      const client = new ResourceManagementClient(credential, subscription, {
        endpoint: cloud.endpoint,
        credentials: { scopes: [`${audience}/.default`] },
      });
      try {
        const resources: ListedResource[] = [];
        for await (const entry of client.resources.listByResourceGroup(resourceGroup)) {
          resources.push({ id: entry.id ?? '', name: entry.name ?? '', type: entry.type ?? '' });
        }
        return { state: 'listed', resources };
      } catch (error) {
        const lookup = lookupOfError(error);
        if (lookup.state === 'not-found') return { state: 'not-found' };
        if (lookup.state === 'found') return { state: 'error', message: 'unexpected answer' };
        return lookup;
      }
    },
  };
}
