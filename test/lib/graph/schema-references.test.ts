import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  pathText,
  type ReferencePath,
  referencePathsOf,
  type SchemaNode,
} from '../../../src/lib/graph/schema-references.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const crds = sharedData(
  'real-aso-crds/v2.20.0',
  'test/lib/graph/schema-references.test.ts (ASO v2.20.0 CRDs)',
);

interface CrdFile {
  spec: {
    group: string;
    names: { kind: string };
    versions: Array<{ name: string; storage: boolean; schema: { openAPIV3Schema: SchemaNode } }>;
  };
}

/** `group/Kind` -> the reference paths of its storage version's spec, for every real CRD. */
function pathsByKind(): Map<string, ReferencePath[]> {
  const byKind = new Map<string, ReferencePath[]>();
  for (const file of readdirSync(crds.path).filter((name) => name.endsWith('.yaml'))) {
    const crd = parse(readFileSync(join(crds.path, file), 'utf8')) as CrdFile;
    const storage = crd.spec.versions.find((version) => version.storage);
    const spec = storage?.schema.openAPIV3Schema.properties?.spec;
    byKind.set(`${crd.spec.group}/${crd.spec.names.kind}`, referencePathsOf(spec));
  }
  return byKind;
}

function described(paths: ReferencePath[] | undefined): string[] {
  return (paths ?? []).map((p) => `${p.role} ${pathText(p.path)}`).sort();
}

describe.runIf(crds.present)('reference paths found in the ASO v2.20.0 CRD schemas', () => {
  const byKind = crds.present ? pathsByKind() : new Map<string, ReferencePath[]>();

  it('gives a PostgreSQL FlexibleServersDatabase its owner FlexibleServer from the owner schema', () => {
    const owner = byKind
      .get('dbforpostgresql.azure.com/FlexibleServersDatabase')
      ?.find((p) => p.role === 'owner');
    expect(owner).toEqual({
      path: ['owner'],
      role: 'owner',
      ownerType: { group: 'dbforpostgresql.azure.com', kind: 'FlexibleServer' },
    });
  });

  it("finds a SQL server's administratorLoginPassword secret, its identity reference and its exports", () => {
    const paths = described(byKind.get('sql.azure.com/Server'));
    expect(paths).toContain('secret administratorLoginPassword');
    expect(paths).toContain('resource primaryUserAssignedIdentityReference');
    expect(paths).toContain('resource identity.userAssignedIdentities[].reference');
    expect(paths).toContain('exportConfigMap operatorSpec.configMaps.fullyQualifiedDomainName');
    expect(paths).toContain('exportSecret operatorSpec.secretExpressions[]');
    expect(paths).toContain('exportConfigMap operatorSpec.configMapExpressions[]');
  });

  it('finds *FromConfig properties as config-map references and SecretMapReferences as whole secrets', () => {
    const identity = described(byKind.get('authorization.azure.com/RoleAssignment'));
    expect(identity).toContain('configMap principalIdFromConfig');
    const all = [...byKind.values()].flat();
    const fromConfig = all.filter((p) => p.path.at(-1)?.endsWith('FromConfig'));
    expect(fromConfig.length).toBeGreaterThan(40);
    expect(fromConfig.every((p) => p.role === 'configMap')).toBe(true);
    expect(all.filter((p) => p.role === 'secretMap').length).toBeGreaterThan(5);
  });

  it('finds an owner on every kind but the three the operator creates at the top (and extensions name theirs)', () => {
    const withoutOwner = [...byKind].filter(([, paths]) => !paths.some((p) => p.role === 'owner'));
    expect(withoutOwner.map(([kind]) => kind).sort()).toEqual([
      'entra.azure.com/SecurityGroup',
      'resources.azure.com/ResourceGroup',
      'subscription.azure.com/Alias',
    ]);
    const owners = [...byKind.values()].flat().filter((p) => p.role === 'owner');
    // An extension resource's owner names its own group and kind; every other owner's type is in its schema.
    const untyped = owners.filter((p) => p.ownerType === undefined);
    expect(untyped.length).toBeGreaterThan(0);
    expect(untyped.length).toBeLessThan(20);
  });

  it('counts the reference paths of every kind by role', () => {
    const counts: Record<string, number> = {};
    for (const paths of byKind.values()) for (const p of paths) counts[p.role] = (counts[p.role] ?? 0) + 1;
    expect(byKind.size).toBe(283);
    expect(counts.owner).toBe(280);
    expect(counts.resource).toBeGreaterThan(250);
    expect(counts.secret).toBeGreaterThan(100);
    expect(counts.exportSecret).toBeGreaterThan(250);
    expect(counts.exportConfigMap).toBeGreaterThan(250);
    const kindsWithReferences = [...byKind.values()].filter((paths) =>
      paths.some((p) => p.role === 'resource'),
    );
    expect(kindsWithReferences.length).toBeGreaterThan(50);
  });
});
