import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { azureBundleUrl, azureLibraries } from '../../../src/lib/azure/libraries.ts';

const builtModule = new URL('../../../dist/src/lib/azure/libraries.js', import.meta.url);
const builtBundle = fileURLToPath(new URL(azureBundleUrl, builtModule));

describe('the Azure libraries', () => {
  it('come from the installed packages when run from the sources', async () => {
    const libraries = await azureLibraries();
    expect(libraries.armResources.ResourceManagementClient).toBe(
      (await import('@azure/arm-resources')).ResourceManagementClient,
    );
    expect(libraries.identity.ClientSecretCredential).toBe(
      (await import('@azure/identity')).ClientSecretCredential,
    );
    expect(azureLibraries()).toBe(azureLibraries());
  });

  it('come from the one bundle the build writes when run from dist, loaded once', async () => {
    if (!existsSync(fileURLToPath(builtModule))) throw new Error('run npm run build first (npm test does)');
    expect(existsSync(builtBundle)).toBe(true);
    const built = (await import(builtModule.href)) as typeof import('../../../src/lib/azure/libraries.ts');
    const libraries = await built.azureLibraries();
    // Node's CommonJS cache is shared by every require: the bundle is what was loaded.
    expect(createRequire(import.meta.url).cache[builtBundle]).toBeDefined();
    const packaged = await import('@azure/arm-resources');
    expect(libraries.armResources.ResourceManagementClient).not.toBe(packaged.ResourceManagementClient);
    expect(Object.keys(libraries.armResources).sort()).toEqual(Object.keys(packaged).sort());
    expect(typeof libraries.identity.DefaultAzureCredential).toBe('function');
    expect(built.azureLibraries()).toBe(built.azureLibraries());
  });
});
