import { describe, expect, it } from 'vitest';
import { DefinitionNames, oneOfArmSchema } from '../../../src/codegen/import/arm-schema.ts';
import { noHints } from '../../../src/codegen/import/hints.ts';
import type { CrdNode } from '../../../src/codegen/import/real-crds.ts';
import { oneOfLeaves, reverseCrd, UnsupportedCrdShape } from '../../../src/codegen/import/reverse.ts';

const str: CrdNode = { type: 'string' };
const reference: CrdNode = {
  type: 'object',
  properties: { armId: str, group: str, kind: str, name: str },
};

describe("undoing the operator's transformations", () => {
  it('takes the ARM name of a reference from the status: `<x>Id`, or `<x>` where ARM has no Id suffix', () => {
    const spec: CrdNode = {
      type: 'object',
      properties: {
        keyVaultProperties: {
          type: 'object',
          properties: { keyName: str, userIdentityReference: reference },
        },
        subnetReference: reference,
      },
    };
    const status: CrdNode = {
      type: 'object',
      properties: {
        keyVaultProperties: { type: 'object', properties: { keyName: str, userIdentity: str } },
        subnetId: str,
      },
    };
    const { fields, reversals } = reverseCrd('memory.yaml', spec, status);
    expect([...(fields.properties?.keys() ?? [])]).toEqual(['keyVaultProperties', 'subnetId']);
    expect([...(fields.properties?.get('keyVaultProperties')?.properties?.keys() ?? [])]).toEqual([
      'keyName',
      'userIdentity',
    ]);
    expect(reversals).toEqual([
      { transformation: 'armReferences', owner: 'keyVaultProperties', property: 'userIdentity' },
      { transformation: 'armReferences', owner: '', property: 'subnetId' },
    ]);
  });

  it('gives a reference the ARM name the status keeps: <name>Id, or <name> when ARM has no Id suffix', () => {
    const reference = { type: 'object', properties: { armId: { type: 'string' } } };
    const spec = {
      type: 'object',
      properties: {
        userAssignedIdentityReference: reference,
        resourceReference: reference,
        sourceReference: reference,
      },
    };
    const status = {
      type: 'object',
      properties: { userAssignedIdentity: { type: 'string' }, resourceId: { type: 'string' } },
    };
    const { fields, reversals } = reverseCrd('memory.yaml', spec, status);
    expect(reversals.map((r) => r.property).sort()).toEqual([
      'resourceId',
      'sourceId',
      'userAssignedIdentity',
    ]);
    expect([...(fields.properties?.keys() ?? [])].sort()).toEqual([
      'resourceId',
      'sourceId',
      'userAssignedIdentity',
    ]);
  });
});

describe('any JSON (x-kubernetes-preserve-unknown-fields, a v1.JSON in Go)', () => {
  const anyJson: CrdNode = { 'x-kubernetes-preserve-unknown-fields': true };

  it("takes a whole secret (the operator's SecretMapReference) as ARM's map of strings, the status's", () => {
    const secretName = {
      type: 'string',
      description: 'Name is the name of the Kubernetes secret being referenced.',
    };
    const spec: CrdNode = {
      type: 'object',
      properties: { credentials: { type: 'object', properties: { name: secretName }, required: ['name'] } },
    };
    const status: CrdNode = {
      type: 'object',
      properties: { credentials: { type: 'object', additionalProperties: str } },
    };
    const { fields, reversals } = reverseCrd('memory.yaml', spec, status);
    const credentials = fields.properties?.get('credentials');
    expect(credentials?.type).toBe('map');
    expect(credentials?.element?.type).toBe('string');
    expect(credentials?.readOnly).toBe(false);
    expect(reversals).toEqual([{ transformation: 'secretMaps', owner: '', property: 'credentials' }]);
  });

  it("keeps a number the operator's spec takes as an integer a number, marked for the spec", () => {
    const spec: CrdNode = { type: 'object', properties: { percentage: { type: 'integer', maximum: 100 } } };
    const status: CrdNode = { type: 'object', properties: { percentage: { type: 'number' } } };
    const percentage = reverseCrd('memory.yaml', spec, status).fields.properties?.get('percentage');
    expect(percentage).toMatchObject({ type: 'number', specInteger: true, maximum: 100 });
    // The other way round is not the operator's doing: refused, as any other disagreement.
    expect(() =>
      reverseCrd(
        'memory.yaml',
        { type: 'object', properties: { n: { type: 'number' } } },
        { type: 'object', properties: { n: { type: 'integer' } } },
      ),
    ).toThrow(UnsupportedCrdShape);
  });

  it('reads a map of any JSON and a property of any JSON as json fields', () => {
    const spec: CrdNode = {
      type: 'object',
      properties: { settings: { type: 'object', additionalProperties: anyJson }, extra: anyJson },
    };
    const { fields } = reverseCrd('memory.yaml', spec, { type: 'object', properties: {} });
    const settings = fields.properties?.get('settings');
    expect(settings?.type).toBe('map');
    expect(settings?.element?.type).toBe('json');
    expect(fields.properties?.get('extra')?.type).toBe('json');
  });

  it("gives ARM's identity map JSON values where the status holds any JSON per identity (MySQL)", () => {
    const identityList: CrdNode = {
      type: 'array',
      items: { type: 'object', properties: { reference } },
    };
    const spec: CrdNode = {
      type: 'object',
      properties: { identity: { type: 'object', properties: { userAssignedIdentities: identityList } } },
    };
    const status: CrdNode = {
      type: 'object',
      properties: {
        identity: {
          type: 'object',
          properties: { userAssignedIdentities: { type: 'object', additionalProperties: anyJson } },
        },
      },
    };
    const { fields } = reverseCrd('memory.yaml', spec, status);
    const identities = fields.properties?.get('identity')?.properties?.get('userAssignedIdentities');
    expect(identities?.type).toBe('map');
    expect(identities?.element?.type).toBe('json');
  });
});

describe('a oneOf CRD (seed 004)', () => {
  const leafSpec: CrdNode = {
    type: 'object',
    required: ['kind'],
    properties: { kind: { type: 'string', enum: ['ReadWrite'] }, location: str, hotCachePeriod: str },
  };
  const leafStatus: CrdNode = {
    type: 'object',
    properties: { id: str, type: str, kind: str, location: str, isFollowed: { type: 'boolean' } },
  };
  const spec: CrdNode = {
    type: 'object',
    properties: { azureName: str, owner: reference, readWriteDatabase: leafSpec },
  };
  const status: CrdNode = { type: 'object', properties: { name: str, readWrite: leafStatus } };

  it("pairs the spec's leaf (named after its type) with the status's (named after its kind)", () => {
    expect(oneOfLeaves('memory.yaml', spec, status)).toEqual([
      {
        property: 'readWriteDatabase',
        statusProperty: 'readWrite',
        kindValue: 'ReadWrite',
        spec: leafSpec,
        status: leafStatus,
      },
    ]);
    expect(
      oneOfLeaves('memory.yaml', { type: 'object', properties: { azureName: str, location: str } }, status),
    ).toBe(undefined);
    expect(() => oneOfLeaves('memory.yaml', spec, { type: 'object', properties: { name: str } })).toThrow(
      UnsupportedCrdShape,
    );
  });

  it('writes each leaf as a definition with the name, ID and kind of its ARM body', () => {
    const [leaf] = oneOfLeaves('memory.yaml', spec, status) ?? [];
    if (!leaf) throw new Error('no leaf');
    const { fields } = reverseCrd('memory.yaml', leaf.spec, leaf.status);
    const { document } = oneOfArmSchema(
      {
        provider: 'Microsoft.Kusto',
        typePath: 'clusters/databases',
        apiVersion: '2024-04-13',
        kind: 'Database',
        leaves: [{ name: 'ReadWriteDatabase', fields, hints: noHints }],
      },
      new DefinitionNames(),
    );
    const doc = document as {
      resourceDefinitions: Record<string, { oneOf: unknown; discriminator: string }>;
      definitions: Record<string, { properties: Record<string, unknown>; required: string[] }>;
    };
    expect(doc.resourceDefinitions.clusters_databases).toMatchObject({
      oneOf: [{ $ref: '#/definitions/ReadWriteDatabase' }],
      discriminator: 'kind',
    });
    const readWrite = doc.definitions.ReadWriteDatabase;
    expect(Object.keys(readWrite?.properties ?? {}).sort()).toEqual([
      'id',
      'kind',
      'location',
      'name',
      'properties',
    ]);
    expect(readWrite?.required).toEqual(['name', 'kind']);
    expect(Object.keys(doc.definitions.ReadWriteDatabaseProperties?.properties ?? {})).toEqual([
      'hotCachePeriod',
      'isFollowed',
    ]);
  });
});
