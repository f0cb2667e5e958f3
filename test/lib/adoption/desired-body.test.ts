import { describe, expect, it } from 'vitest';
import { desiredArmOf, generatedLayoutOf } from '../../../src/lib/adoption/desired-body.ts';
import { whatIf } from '../../../src/lib/adoption/what-if.ts';
import type { ManifestObject } from '../../../src/lib/manifests/read.ts';

const object = (apiVersion: string, kind: string, spec: Record<string, unknown>): ManifestObject => ({
  apiVersion,
  kind,
  metadata: { name: 'obj' },
  spec,
  source: 'test.yaml#1',
});

describe('desiredArmOf', () => {
  it('uses the generated payload of a catalogued kind: its own root fields (managedBy), not the layout rule', async () => {
    const desired = await desiredArmOf(
      object('resources.azure.com/v1api20200601', 'ResourceGroup', {
        location: 'westus',
        managedBy: '/subscriptions/s/providers/Microsoft.Solutions/x',
        azureName: 'rg-real',
      }),
    );
    expect(desired.from).toBe('generated-payload');
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
    const desired = await desiredArmOf(
      object('dbforpostgresql.azure.com/v1api20240801', 'FlexibleServer', spec),
    );
    expect(desired.from).toBe('generated-payload');
    expect(desired.body).toEqual({
      name: 'obj',
      location: 'westus',
      properties: { administratorLogin: 'admin', network: { delegatedSubnetResourceId: '/subnets/a' } },
    });
    expect(desired.unmapped.sort()).toEqual([
      'spec.administratorLoginPassword',
      'spec.sourceServerResourceReference',
    ]);
    const resolved = await desiredArmOf(
      object('dbforpostgresql.azure.com/v1api20240801', 'FlexibleServer', spec),
      {
        armIdOf: (ref) => (ref.name === 'other-server' ? '/servers/other' : undefined),
      },
    );
    expect(resolved.body.properties).toMatchObject({ sourceServerResourceId: '/servers/other' });
    expect(resolved.unmapped).toEqual(['spec.administratorLoginPassword']);
  });

  it('sends only what the version has: unknown keys are unmapped, unknown nested keys dropped', async () => {
    const desired = await desiredArmOf(
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
    expect(desired.from).toBe('generated-payload');
    expect(desired.body).toEqual({
      name: 'obj',
      location: 'westus',
      sku: { name: 'Standard_B1ms', tier: 'Burstable' },
      properties: { version: '16', storage: { storageSizeGB: 64 } },
    });
    expect(desired.unmapped.sort()).toEqual(['spec.administratorLoginPassword', 'spec.notAField']);
  });

  it('keeps ARM layout rule for kinds the catalog lacks, and for versions it does not generate', async () => {
    // Every kind of v2.20.0 is in the core: this one stands for a kind of a newer operator release.
    const backend = await desiredArmOf(
      object('apimanagement.azure.com/v20240501', 'BackendOfANewerRelease', {
        url: 'https://example.com',
        protocol: 'http',
        tags: { team: 'a' },
      }),
    );
    expect(backend).toEqual({
      from: 'layout-rule',
      body: { tags: { team: 'a' }, properties: { url: 'https://example.com', protocol: 'http' } },
      unmapped: [],
      secretsAt: [],
      wholeAt: [],
    });
    expect(
      await generatedLayoutOf('dbforpostgresql.azure.com', 'v1api20991231', 'FlexibleServer'),
    ).toBeUndefined();
    const later = await desiredArmOf(
      object('dbforpostgresql.azure.com/v1api20991231', 'FlexibleServer', { version: '16' }),
    );
    expect(later.from).toBe('layout-rule');
  });

  it('never puts an inline secret value in the body, even where the version or the kind is not catalogued', async () => {
    const password = 'Hunter2-inline-password';
    // A version the catalog does not generate is laid out by the layout rule; the generated versions of
    // the kind still say which properties are secrets.
    const later = await desiredArmOf(
      object('kusto.azure.com/v1api20991231', 'Cluster', {
        location: 'westus',
        virtualClusterGraduationProperties: password,
      }),
    );
    expect(later.from).toBe('layout-rule');
    expect(JSON.stringify(later)).not.toContain(password);
    expect(later.unmapped).toContain('spec.virtualClusterGraduationProperties');
    const uncatalogued = await desiredArmOf(
      object('cache.azure.com/v1api20230801', 'Redis', { location: 'westus', adminPassword: password }),
    );
    expect(JSON.stringify(uncatalogued)).not.toContain(password);
    expect(uncatalogued.unmapped).toContain('spec.adminPassword');
  });
});
