import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kindsWithoutArm } from '../../../generated/catalog.ts';
import { armIdPattern } from '../../../src/lib/adoption/arm-uri.ts';
import { OwnerCycle } from '../../../src/lib/adoption/errors.ts';
import { type CrdLike, crdArmIndexOf, kindArmOf, nonArmKinds } from '../../../src/lib/adoption/kind-arm.ts';
import { resolveArmIds } from '../../../src/lib/adoption/resolve-arm-id.ts';
import { readManifests } from '../../../src/lib/manifests/read.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const sub = '00000000-0000-0000-0000-000000000001';

function objectsOf(text: string) {
  return readManifests({ files: ['-'], recursive: false, readStdin: () => text }).objects;
}

const files = `
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: ns}
spec: {location: westus, azureName: my-rg}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServer
metadata: {name: pg, namespace: ns}
spec: {owner: {name: rg}}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersDatabase
metadata: {name: db, namespace: ns}
spec: {owner: {name: pg}}
---
apiVersion: authorization.azure.com/v1api20220401
kind: RoleAssignment
metadata: {name: ra, namespace: ns}
spec: {owner: {name: pg, group: dbforpostgresql.azure.com, kind: FlexibleServer}, azureName: "1111"}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServer
metadata: {name: byid, namespace: ns}
spec: {owner: {armId: /subscriptions/s2/resourceGroups/other}}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersDatabase
metadata: {name: orphan, namespace: ns}
spec: {owner: {name: nothere}}
---
apiVersion: widgets.azure.com/v1api20250101
kind: Gadget
metadata: {name: g, namespace: ns}
spec: {owner: {name: rg}}
`;

describe('resolveArmIds for a fixed-name kind from the catalog (no CRDs)', () => {
  const objects = objectsOf(`
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: ns}
spec: {location: westus}
---
apiVersion: storage.azure.com/v20250601
kind: StorageAccount
metadata: {name: acct, namespace: ns}
spec: {owner: {name: rg}}
---
apiVersion: storage.azure.com/v20250601
kind: StorageAccountsBlobService
metadata: {name: blobs, namespace: ns}
spec: {owner: {name: acct}}
---
apiVersion: storage.azure.com/v20250601
kind: StorageAccountsBlobServicesContainer
metadata: {name: box, namespace: ns}
spec: {owner: {name: blobs}}
`);
  const answers = resolveArmIds(objects, {
    objects,
    crds: new Map(),
    subscriptionOf: () => sub,
    defaultNamespace: 'default',
  });
  const idOf = (name: string) => answers.get(objects.find((o) => o.metadata.name === name) as never);

  it("names a blob service `default` whatever its metadata.name, as the operator's ARM URI does, and its containers below it", () => {
    const account = `/subscriptions/${sub}/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct`;
    expect(idOf('blobs')?.armId).toBe(`${account}/blobServices/default`);
    expect(idOf('blobs')?.kindArm?.source).toBe('catalog');
    expect(idOf('box')?.armId).toBe(`${account}/blobServices/default/containers/box`);
  });
});

describe('resolveArmIds for an Azure name read from a config map (no CRDs)', () => {
  const objects = objectsOf(`
apiVersion: resources.azure.com/v1api20200601
kind: ResourceGroup
metadata: {name: rg, namespace: ns}
spec: {location: westus}
---
apiVersion: dbforpostgresql.azure.com/v20250801
kind: FlexibleServer
metadata: {name: pg, namespace: ns}
spec: {owner: {name: rg}}
---
apiVersion: dbforpostgresql.azure.com/v20250801
kind: FlexibleServersAdministrator
metadata: {name: admin, namespace: ns}
spec: {owner: {name: pg}, azureNameFromConfig: {name: admins, key: objectId}}
---
apiVersion: dbforpostgresql.azure.com/v20250801
kind: FlexibleServersAdministrator
metadata: {name: named, namespace: ns}
spec: {owner: {name: pg}, azureName: "1111", azureNameFromConfig: {name: admins, key: objectId}}
`);
  const answers = resolveArmIds(objects, {
    objects,
    crds: new Map(),
    subscriptionOf: () => sub,
    defaultNamespace: 'default',
  });
  const idOf = (name: string) => answers.get(objects.find((o) => o.metadata.name === name) as never);

  it('gives no ARM ID from metadata.name, and says the name is read from a config map', () => {
    const answer = idOf('admin');
    expect(answer?.armId).toBeUndefined();
    expect(answer && 'unknown' in answer ? answer.unknown : undefined).toMatch(/azureNameFromConfig/);
  });

  it('takes an azureName beside it, as the operator does', () => {
    expect(idOf('named')?.armId).toBe(
      `/subscriptions/${sub}/resourceGroups/rg/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg/administrators/1111`,
    );
  });
});

describe('resolveArmIds', () => {
  const objects = objectsOf(files);
  const answers = resolveArmIds(objects, {
    objects,
    crds: new Map(),
    subscriptionOf: () => sub,
    defaultNamespace: 'default',
  });
  const idOf = (name: string) => answers.get(objects.find((o) => o.metadata.name === name) as never);

  it('builds resource group, child and grandchild IDs from owners in the files, with azureName', () => {
    expect(idOf('rg')?.armId).toBe(`/subscriptions/${sub}/resourceGroups/my-rg`);
    expect(idOf('pg')?.armId).toBe(
      `/subscriptions/${sub}/resourceGroups/my-rg/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg`,
    );
    expect(idOf('db')?.armId).toBe(
      `/subscriptions/${sub}/resourceGroups/my-rg/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg/databases/db`,
    );
    expect(idOf('db')?.kindArm?.source).toBe('catalog');
  });
  it('puts an extension resource on its owner and honours owner armId', () => {
    expect(idOf('ra')?.armId).toBe(
      `${idOf('pg')?.armId}/providers/Microsoft.Authorization/roleAssignments/1111`,
    );
    expect(idOf('byid')?.armId).toBe(
      '/subscriptions/s2/resourceGroups/other/providers/Microsoft.DBforPostgreSQL/flexibleServers/byid',
    );
  });
  it('names a missing owner', () => {
    expect(idOf('orphan')).toMatchObject({ unknown: expect.stringContaining('owner nothere') });
  });
  it('infers an unknown kind from naming, flagged', () => {
    expect(idOf('g')).toMatchObject({
      armId: `/subscriptions/${sub}/resourceGroups/my-rg/providers/Microsoft.Widgets/gadgets/g`,
      kindArm: { source: 'inferred' },
    });
  });
  it('reports an owner cycle', () => {
    const cycle = objectsOf(`
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersDatabase
metadata: {name: a}
spec: {owner: {name: b, kind: FlexibleServersDatabase}}
---
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServersDatabase
metadata: {name: b}
spec: {owner: {name: a, kind: FlexibleServersDatabase}}
`);
    expect(() =>
      resolveArmIds(cycle, {
        objects: cycle,
        crds: new Map(),
        subscriptionOf: () => sub,
        defaultNamespace: 'd',
      }),
    ).toThrow(OwnerCycle);
  });

  const users = objectsOf(`
apiVersion: dbforpostgresql.azure.com/v1api20221201
kind: FlexibleServer
metadata: {name: pg, namespace: ns}
spec: {owner: {armId: /subscriptions/${sub}/resourceGroups/rg}}
---
apiVersion: dbforpostgresql.azure.com/v1
kind: User
metadata: {name: app, namespace: ns}
spec: {owner: {name: pg}}
---
apiVersion: widgets.azure.com/v1api20240101
kind: Gadget
metadata: {name: g, namespace: ns}
spec: {owner: {armId: /subscriptions/${sub}/resourceGroups/rg}}
`);

  it('gives no invented ARM ID to a kind that is not an ARM resource', () => {
    const offline = resolveArmIds(users, {
      objects: users,
      crds: new Map(),
      subscriptionOf: () => sub,
      defaultNamespace: 'd',
    });
    const user = offline.get(users[1] as never);
    expect(user?.armId).toBeUndefined();
    expect(user && 'unknown' in user ? user.unknown : '').toMatch(/not an ARM resource.*PostgreSQL server/);
    // Without a cluster an unknown kind is inferred (flagged); a cluster CRD with no ARM URI says otherwise.
    expect(offline.get(users[2] as never)?.kindArm?.source).toBe('inferred');
    const withCrd = resolveArmIds(users, {
      objects: users,
      crds: crdArmIndexOf([
        {
          spec: {
            group: 'widgets.azure.com',
            names: { kind: 'Gadget' },
            versions: [{ name: 'v1api20240101', schema: { openAPIV3Schema: { description: 'A gadget.' } } }],
          },
        },
      ]),
      subscriptionOf: () => sub,
      defaultNamespace: 'd',
    });
    const gadget = withCrd.get(users[2] as never);
    expect(gadget?.armId).toBeUndefined();
    expect(gadget && 'unknown' in gadget ? gadget.unknown : '').toMatch(/CRD for it names no ARM URI/);
    expect(withCrd.get(users[0] as never)?.armId).toMatch(/flexibleServers\/pg$/);
  });

  const neededBy = 'test/lib/adoption/resolve-arm-id.test.ts';
  const crds = sharedData('real-aso-crds/v2.20.0', neededBy);
  const samples = sharedData('aso-samples/v2.20.0', neededBy);
  const crdDir = crds.path;
  const samplesDir = samples.path;
  let parsed: CrdLike[] | undefined;
  // Parsing the 283 real CRDs takes long on a loaded machine, so the tests below share one parse.
  const realCrds = (): CrdLike[] => {
    parsed ??= readdirSync(crdDir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => parse(readFileSync(path.join(crdDir, f), 'utf8')) as CrdLike);
    return parsed;
  };

  it.skipIf(!crds.present)(
    'lists as not ARM exactly the real v2.20.0 kinds whose CRDs name no ARM URI',
    () => {
      const withoutUri = realCrds()
        .filter((crd) => !JSON.stringify(crd.spec.versions).includes('ARM URI:'))
        .map((crd) => `${crd.spec.group}/${crd.spec.names.kind}`)
        .sort();
      expect(nonArmKinds.map((k) => `${k.group}/${k.kind}`).sort()).toEqual(withoutUri);
      // The conversion core knows the same kinds, imported as they are.
      expect(kindsWithoutArm.map((k) => `${k.group}/${k.kind}`).sort()).toEqual(withoutUri);
    },
    180_000,
  );

  it.skipIf(!crds.present || !samples.present)(
    'gives every real v2.20.0 sample whose owners resolve an ID matching its CRD ARM URI',
    () => {
      const index = crdArmIndexOf(realCrds());
      const set = readManifests({ files: [samplesDir], recursive: true });
      const all = set.objects;
      const answers = resolveArmIds(all, {
        objects: all,
        crds: index,
        subscriptionOf: () => sub,
        defaultNamespace: 'default',
      });
      let resolved = 0;
      const unknown: string[] = [];
      for (const object of all) {
        const answer = answers.get(object);
        expect(answer, object.source).toBeDefined();
        if (answer?.armId === undefined) {
          unknown.push(`${object.source}: ${answer?.unknown}`);
          continue;
        }
        const shape = kindArmOf(object.apiVersion, object.kind, index);
        expect(shape?.source, object.source).toBe('crd');
        expect(answer.armId, `${object.source} vs ${shape?.template.template}`).toMatch(
          armIdPattern(shape?.template as never),
        );
        resolved += 1;
      }
      console.log(
        `real samples: ${all.length} ASO objects, ${resolved} ARM IDs, ${unknown.length} unknown, ${set.passedOver.length} passed over`,
      );
      expect(resolved).toBeGreaterThan(all.length * 0.8);
      const notArm = all.filter((o) =>
        nonArmKinds.some((k) => o.apiVersion.startsWith(`${k.group}/`) && k.kind === o.kind),
      );
      expect(notArm.length).toBeGreaterThan(0);
      for (const object of notArm) {
        const answer = answers.get(object);
        expect(answer && 'unknown' in answer ? answer.unknown : answer?.armId, object.source).toMatch(
          /^not an ARM resource/,
        );
      }
    },
    180_000,
  );
});
