import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { apiVersionOf } from '../../../src/lib/adoption/api-version.ts';
import { armUriInDescription, parseArmUri } from '../../../src/lib/adoption/arm-uri.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

describe('parseArmUri', () => {
  it('reads provider, type path and scope', () => {
    const t = parseArmUri(
      '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.DBforPostgreSQL/flexibleServers/{serverName}/databases/{databaseName}',
    );
    expect(t).toMatchObject({
      provider: 'Microsoft.DBforPostgreSQL',
      typePath: ['flexibleServers', 'databases'],
      scope: 'resourceGroup',
    });
    expect(parseArmUri('/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}')).toMatchObject({
      scope: 'subscription',
      typePath: ['resourceGroups'],
      // IDs built from it read as the operator records them.
      segments: ['subscriptions', '{subscriptionId}', 'resourceGroups', '{resourceGroupName}'],
    });
    expect(
      parseArmUri('/{scope}/providers/Microsoft.Authorization/roleAssignments/{roleAssignmentName}')?.scope,
    ).toBe('extension');
    expect(parseArmUri('/providers/Microsoft.Subscription/aliases/{aliasName}')?.scope).toBe('tenant');
    expect(parseArmUri('not a uri')).toBeUndefined();
  });

  const crds = sharedData('real-aso-crds/v2.20.0', 'test/lib/adoption/arm-uri.test.ts');
  const dir = crds.path;
  it.skipIf(!crds.present)('parses the ARM URI of every version of every real v2.20.0 CRD', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(250);
    let versions = 0;
    const withoutUri = new Set<string>();
    for (const file of files) {
      const crd = parse(readFileSync(path.join(dir, file), 'utf8'));
      for (const version of crd.spec.versions) {
        const uri = armUriInDescription(version.schema?.openAPIV3Schema?.description);
        if (uri === undefined) {
          // Hand-written kinds (database users, Entra groups) are not ARM resources and carry no ARM URI.
          withoutUri.add(file);
          continue;
        }
        const parsed = parseArmUri(uri as string);
        expect(parsed, `${file} ${version.name}: ${uri}`).toBeDefined();
        expect(parsed?.typePath.length).toBeGreaterThan(0);
        if (!version.name.endsWith('storage') && version.name !== 'v1') {
          expect(apiVersionOf(version.name), `${file} ${version.name}`).toMatch(
            /^\d{4}-\d{2}-\d{2}(-preview)?$/,
          );
        }
        versions += 1;
      }
    }
    expect(versions).toBeGreaterThan(283);
    expect(
      [...withoutUri].every((f) => f.endsWith('_users.yaml') || f.startsWith('entra.azure.com_')),
      [...withoutUri].join(' '),
    ).toBe(true);
  });
});

describe('apiVersionOf', () => {
  it('maps ASO version names to ARM API versions', () => {
    expect(apiVersionOf('v1api20240801')).toBe('2024-08-01');
    expect(apiVersionOf('v20250801')).toBe('2025-08-01');
    expect(apiVersionOf('v1api20240610preview')).toBe('2024-06-10-preview');
    expect(apiVersionOf('v1beta20201201')).toBe('2020-12-01');
    expect(apiVersionOf('v1alpha1api20210401')).toBe('2021-04-01');
    expect(apiVersionOf('v1api20240801storage')).toBe('2024-08-01');
    expect(apiVersionOf('v1')).toBeUndefined();
  });
});
