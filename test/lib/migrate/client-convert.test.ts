import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalog, kindsWithoutArm } from '../../../generated/catalog.ts';
import { convert } from '../../../src/lib/conversion/convert.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { type ClientSide, propertyBags, resolveStored } from '../../../src/lib/migrate/client-convert.ts';
import { clientSideRefusal } from '../../../src/lib/migrate/client-eligibility.ts';
import type { Crd } from '../../../src/lib/migrate/crds.ts';
import { schemaDifference } from '../../../src/lib/migrate/schema-compare.ts';
import { generatedCrdFileNames, generatedCrdYaml } from '../../fixtures/generated-crd-files.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const postgresql = 'dbforpostgresql.azure.com';
const older = 'v1api20240801storage';
const hub = 'v20250801storage';
const side: ClientSide = {
  group: postgresql,
  kind: 'FlexibleServer',
  plural: 'flexibleservers',
  target: hub,
  candidates: [older, hub],
};
const metadata = { name: 'pg', namespace: 'ns', resourceVersion: '7' };

/** A FlexibleServer as stored at `version`, with the given spec. */
function storedAt(version: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: `${postgresql}/${version}`, kind: 'FlexibleServer', metadata, spec };
}

/** What a read at `version` gives under conversion None: the stored value relabelled, `drop` pruned. */
function readAt(stored: KubeObject, version: string, drop: string[] = []): KubeObject {
  const spec = structuredClone(stored.spec) as Record<string, unknown>;
  for (const path of drop) {
    const keys = path.split('.');
    let at: Record<string, unknown> | undefined = spec;
    for (const key of keys.slice(0, -1)) at = at?.[key] as Record<string, unknown> | undefined;
    if (at) delete at[keys.at(-1) as string];
  }
  return { ...stored, apiVersion: `${postgresql}/${version}`, spec };
}

const common = {
  owner: { name: 'rg' },
  location: 'westeurope',
  version: '16',
  originalVersion: 'v1api20240801',
};

describe('resolving where an object is stored, under conversion None', () => {
  it('takes the read that holds a property the hub prunes as the stored one, and converts it from there', () => {
    // The operator's 2024-08-01 spec takes the key status; its 2025-08-01 hub does not, and prunes it.
    const dataEncryption = { type: 'SystemManaged', primaryEncryptionKeyStatus: 'Valid' };
    const stored = storedAt(older, { ...common, dataEncryption });
    const reads = new Map([
      [hub, readAt(stored, hub, ['dataEncryption.primaryEncryptionKeyStatus'])],
      [older, readAt(stored, older)],
    ]);
    const resolved = resolveStored(side, reads, metadata);
    if ('failed' in resolved) throw new Error(resolved.failed);
    expect(resolved.storedAt).toEqual([older]);
    expect(resolved.original).toEqual(stored);
    const expected = convert(stored, hub);
    expect(resolved.converted.spec).toEqual(expected.spec);
    expect(resolved.converted.metadata).toEqual(metadata);
    expect(propertyBags(resolved.converted)).toEqual([
      { path: 'spec.dataEncryption', entries: { PrimaryEncryptionKeyStatus: 'Valid' } },
    ]);
  });

  it('accepts an object that fits both versions when both convert it to the same object', () => {
    const stored = storedAt(hub, common);
    const reads = new Map([
      [hub, readAt(stored, hub)],
      [older, readAt(stored, older)],
    ]);
    const resolved = resolveStored(side, reads, metadata);
    if ('failed' in resolved) throw new Error(resolved.failed);
    expect(resolved.storedAt).toEqual([older, hub]);
    expect(resolved.converted.spec).toEqual(stored.spec);
  });

  it('refuses reads that no pruning of one stored value explains', () => {
    const reads = new Map([
      [hub, storedAt(hub, { ...common, location: 'one' })],
      [older, storedAt(older, { ...common, location: 'two' })],
    ]);
    const resolved = resolveStored(side, reads, metadata);
    expect(resolved).toEqual({ failed: expect.stringMatching(/disagree in a way pruning cannot explain/) });
  });
});

describe('comparing a cluster schema with the generated one', () => {
  const schema = (extra: Record<string, unknown> = {}) => ({
    type: 'object',
    description: 'a resource',
    properties: {
      spec: {
        type: 'object',
        properties: { description: { type: 'string' }, size: { type: 'integer' }, ...extra },
      },
    },
  });

  it('leaves descriptions aside but compares a property named description', () => {
    expect(schemaDifference({ ...schema(), description: 'reworded' }, schema())).toBeUndefined();
    const withoutProperty = schema();
    delete (withoutProperty.properties.spec.properties as Record<string, unknown>).description;
    expect(schemaDifference(withoutProperty, schema())).toBe(
      "spec.description: missing from the cluster's schema",
    );
  });

  it('names the first property whose shape differs', () => {
    expect(schemaDifference(schema({ size: { type: 'string' } }), schema())).toBe(
      'spec.size: type is "string" in the cluster, "integer" generated',
    );
  });
});

describe('whether a CRD may be converted client-side', () => {
  const preview = 'v1api20200801previewstorage';
  const hub = 'v1api20220401storage';
  const generatedCrd = parse(generatedCrdYaml('authorization.azure.com_roleassignments.yaml') ?? '') as Crd;

  it('allows the generated CRD itself', () => {
    const crd = { ...generatedCrd, status: { storedVersions: [preview, hub] } };
    expect(clientSideRefusal(crd, hub)).toBeUndefined();
  });

  it('refuses a stored version that is not served', () => {
    const crd = structuredClone({ ...generatedCrd, status: { storedVersions: [preview, hub] } });
    for (const version of crd.spec.versions) if (version.name === preview) version.served = false;
    expect(clientSideRefusal(crd, hub)).toMatch(/v1api20200801previewstorage is not served/);
  });

  const real = sharedData('real-aso-crds/v2.20.0', 'test/lib/migrate/client-convert.test.ts');
  const realCrd = (file: string) => parse(readFileSync(join(real.path, file), 'utf8')) as Crd;
  it.skipIf(!real.present)(
    "accepts the real operator's v2.20.0 CRDs of every generated kind: their storage versions' schemas are the generated ones",
    () => {
      const withoutArm = new Set(kindsWithoutArm.map((k) => `${k.group}_${k.plural}.yaml`));
      const files = generatedCrdFileNames().filter((file) => !withoutArm.has(file));
      expect(files.length).toBe(catalog.length);
      for (const file of files) {
        const crd = realCrd(file);
        const storage = crd.spec.versions.filter((v) => v.name.endsWith('storage')).map((v) => v.name);
        const hub = crd.spec.versions.find((v) => v.storage)?.name ?? '';
        expect(clientSideRefusal({ ...crd, status: { storedVersions: storage } }, hub), file).toBeUndefined();
      }
    },
  );

  it.skipIf(!real.present)(
    'refuses a real CRD whose schema at a stored version is not the generated one',
    () => {
      const crd = realCrd('dbforpostgresql.azure.com_flexibleservers.yaml');
      const older = crd.spec.versions.find((v) => v.name === 'v1api20240801storage');
      const root = older?.schema?.openAPIV3Schema as {
        properties: { spec: { properties: Record<string, unknown> } };
      };
      delete root.properties.spec.properties.version;
      const refusal = clientSideRefusal(
        { ...crd, status: { storedVersions: ['v1api20240801storage', 'v20250801storage'] } },
        'v20250801storage',
      );
      expect(refusal).toMatch(
        /^the cluster's schema of v1api20240801storage is not the generated one \(spec/,
      );
      expect(refusal).toContain('version');
    },
  );
});
