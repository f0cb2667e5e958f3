import { describe, expect, it } from 'vitest';
import { type DesiredArm, desiredArmOf, generatedLayoutOf } from '../../../src/lib/adoption/desired-body.ts';
import { whatIf } from '../../../src/lib/adoption/what-if.ts';
import type { ArmResolvers } from '../../../src/lib/conversion/arm.ts';
import type { ManifestObject } from '../../../src/lib/manifests/read.ts';

const object = (apiVersion: string, kind: string, spec: Record<string, unknown>): ManifestObject => ({
  apiVersion,
  kind,
  metadata: { name: 'obj' },
  spec,
  source: 'test.yaml#1',
});

/** The generated body of a catalogued kind and version; fails the test when it is not predicted. */
async function predicted(manifest: ManifestObject, resolvers?: ArmResolvers): Promise<DesiredArm> {
  const desired = await desiredArmOf(manifest, resolvers);
  if ('unknown' in desired) throw new Error(`not predicted: ${desired.unknown}`);
  return desired;
}

describe('desiredArmOf', () => {
  it('uses the generated payload of a catalogued kind: its own root fields (managedBy) at the root', async () => {
    const desired = await predicted(
      object('resources.azure.com/v1api20200601', 'ResourceGroup', {
        location: 'westus',
        managedBy: '/subscriptions/s/providers/Microsoft.Solutions/x',
        azureName: 'rg-real',
      }),
    );
    expect(desired.body).toEqual({
      name: 'rg-real',
      location: 'westus',
      managedBy: '/subscriptions/s/providers/Microsoft.Solutions/x',
    });
    // The what-if then reports the change where ARM has it, at the root.
    expect(whatIf(desired.body, { location: 'westus', managedBy: 'other' })).toEqual([
      { path: 'managedBy', from: 'other', to: '/subscriptions/s/providers/Microsoft.Solutions/x' },
    ]);
  });

  it('sends references as the ARM IDs ARM has, and lists unresolved references and secrets as unmapped', async () => {
    const spec = {
      owner: { name: 'rg' },
      location: 'westus',
      administratorLogin: 'admin',
      administratorLoginPassword: { name: 'pg-secret', key: 'password' },
      network: { delegatedSubnetResourceReference: { armId: '/subnets/a' } },
      sourceServerResourceReference: { name: 'other-server', kind: 'FlexibleServer' },
    };
    const desired = await predicted(
      object('dbforpostgresql.azure.com/v1api20240801', 'FlexibleServer', spec),
    );
    expect(desired.body).toEqual({
      name: 'obj',
      location: 'westus',
      properties: { administratorLogin: 'admin', network: { delegatedSubnetResourceId: '/subnets/a' } },
    });
    expect(desired.unmapped.sort()).toEqual([
      'spec.administratorLoginPassword',
      'spec.sourceServerResourceReference',
    ]);
    const resolved = await predicted(
      object('dbforpostgresql.azure.com/v1api20240801', 'FlexibleServer', spec),
      {
        armIdOf: (ref) => (ref.name === 'other-server' ? '/servers/other' : undefined),
      },
    );
    expect(resolved.body.properties).toMatchObject({ sourceServerResourceId: '/servers/other' });
    expect(resolved.unmapped).toEqual(['spec.administratorLoginPassword']);
  });

  it('sends only what the version has: unknown keys are unmapped, unknown nested keys dropped', async () => {
    const desired = await predicted(
      object('dbforpostgresql.azure.com/v1api20221201', 'FlexibleServer', {
        owner: { name: 'rg' },
        location: 'westus',
        version: '16',
        sku: { name: 'Standard_B1ms', tier: 'Burstable' },
        storage: { storageSizeGB: 64, notInThisVersion: true },
        administratorLoginPassword: { name: 'pg-secret', key: 'password' },
        notAField: 1,
      }),
    );
    expect(desired.body).toEqual({
      name: 'obj',
      location: 'westus',
      sku: { name: 'Standard_B1ms', tier: 'Burstable' },
      properties: { version: '16', storage: { storageSizeGB: 64 } },
    });
    expect(desired.unmapped.sort()).toEqual(['spec.administratorLoginPassword', 'spec.notAField']);
  });

  it('predicts no body for a kind or a version the catalog does not generate, and says which', async () => {
    const password = 'Hunter2-inline-password';
    // Every kind of v2.20.0 is in the core: these stand for a kind and a version of a newer release.
    for (const manifest of [
      object('apimanagement.azure.com/v20240501', 'BackendOfANewerRelease', {
        url: 'https://example.com',
        password,
      }),
      object('dbforpostgresql.azure.com/v1api20991231', 'FlexibleServer', {
        version: '16',
        administratorLoginPassword: password,
      }),
    ]) {
      const desired = await desiredArmOf(manifest);
      expect(desired).toEqual({
        unknown: expect.stringContaining(`${manifest.kind} at ${manifest.apiVersion}`),
      });
      expect(JSON.stringify(desired)).not.toContain(password);
    }
    expect(
      await generatedLayoutOf('dbforpostgresql.azure.com', 'v1api20991231', 'FlexibleServer'),
    ).toBeUndefined();
  });

  it('places what the catalog marks unchangeable or write-only where the body sends it', async () => {
    const server = await predicted(object('dbforpostgresql.azure.com/v1api20240801', 'FlexibleServer', {}));
    // A reference is sent under its ARM name, inside the object that holds it.
    expect(server.immutableAt).toContain('properties.network.delegatedSubnetResourceId');
    const scaleSet = await predicted(object('compute.azure.com/v1api20220301', 'VirtualMachineScaleSet', {}));
    // An extension's settings sit in its own `properties`, which the spec flattens away.
    expect(scaleSet.writeOnlyAt).toContain(
      'properties.virtualMachineProfile.extensionProfile.extensions[*].properties.protectedSettings',
    );
    const subscription = await predicted(
      object('eventgrid.azure.com/v1api20200601', 'EventSubscription', {}),
    );
    // A union's option is sent in the union's place, with its own `properties`.
    expect(subscription.writeOnlyAt).toContain('properties.destination.properties.endpointUrl');
  });

  it('never puts an inline secret value in the body or the unmapped list', async () => {
    const password = 'Hunter2-inline-password';
    const redis = await predicted(
      object('cache.azure.com/v1api20230801', 'Redis', { location: 'westus', adminPassword: password }),
    );
    expect(JSON.stringify(redis)).not.toContain(password);
    expect(redis.unmapped).toContain('spec.adminPassword');
  });
});
