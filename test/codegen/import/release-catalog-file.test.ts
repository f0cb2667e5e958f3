import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compareReleases,
  releaseCatalogText,
  releaseOperatorsOfCatalog,
  releaseTreesOfCatalog,
} from '../../../src/codegen/import/release-catalog-file.ts';
import {
  propertyTreeOf,
  type ReleaseTrees,
  releaseTreesIn,
} from '../../../src/codegen/import/release-trees.ts';

const dir = mkdtempSync(join(tmpdir(), 'release-trees-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const crd = (kind: string, versions: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: things.azure.com
  names: { kind: ${kind} }
  versions:
${versions}`;

const version = (name: string, storage: boolean, spec: string) => `  - name: ${name}
    served: true
    storage: ${storage}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: ${spec}
`;

describe('propertyTreeOf', () => {
  it('keeps each property type as a letter, with list items under [] and map values under {}', () => {
    expect(
      propertyTreeOf({
        type: 'object',
        properties: {
          tags: { type: 'object', additionalProperties: { type: 'string' } },
          rules: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' } } } },
          settings: { 'x-kubernetes-preserve-unknown-fields': true },
          on: { type: 'boolean' },
        },
      }),
    ).toEqual([
      'o',
      { on: 'b', rules: ['l', { '[]': ['o', { port: 'i' }] }], settings: 'j', tags: ['o', { '{}': 's' }] },
    ]);
  });
});

describe('releaseTreesIn', () => {
  it('reads each CRD of a folder as group/Kind with its versions, served and storage flags and trees', () => {
    writeFileSync(
      join(dir, 'things.azure.com_widgets.yaml'),
      crd(
        'Widget',
        version('v1', false, '{ type: object, properties: { size: { type: integer } } }') +
          version('v1storage', true, '{ type: object, properties: { size: { type: integer } } }'),
      ),
    );
    const trees = releaseTreesIn(dir);
    expect(Object.keys(trees)).toEqual(['things.azure.com/Widget']);
    expect(trees['things.azure.com/Widget']?.v1storage).toEqual({
      served: true,
      storage: true,
      tree: ['o', { spec: ['o', { size: 'i' }] }],
    });
  });

  it('names a file whose document is no CRD, instead of leaving the kind out', () => {
    const bad = mkdtempSync(join(tmpdir(), 'release-trees-bad-'));
    try {
      writeFileSync(join(bad, 'broken.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
      expect(() => releaseTreesIn(bad)).toThrow(/broken\.yaml: a document is not a CRD/);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

describe('the catalog file', () => {
  const tree = (size: string) => ['o', { spec: ['o', { size }] }] as const;
  const releases: Record<string, ReleaseTrees> = {
    'v2.18.0': { 'things.azure.com/Widget': { v1: { served: true, storage: true, tree: tree('i') } } },
    'v2.9.0': {
      'things.azure.com/Widget': {
        v1: { served: true, storage: false, tree: tree('i') },
        v0: { served: true, storage: true, tree: tree('s') },
      },
    },
  };

  const operators = {
    'v2.18.0': { cleansStoredVersions: true },
    'v2.9.0': { cleansStoredVersions: false },
  };

  it('reads back what it wrote, each tree kept once however many versions share it', () => {
    const text = releaseCatalogText(releases, operators);
    expect(releaseTreesOfCatalog(text)).toEqual(releases);
    expect(releaseOperatorsOfCatalog(text)).toEqual(operators);
    const file = JSON.parse(text) as { trees: unknown[]; releases: Record<string, unknown> };
    expect(file.trees).toHaveLength(2);
    // Releases by version number, not as strings: v2.9.0 is older than v2.18.0.
    expect(Object.keys(file.releases)).toEqual(['v2.9.0', 'v2.18.0']);
    expect(releaseCatalogText(releaseTreesOfCatalog(text), releaseOperatorsOfCatalog(text))).toBe(text);
  });

  it('orders releases by version number', () => {
    expect(['v2.20.0', 'v2.9.0', 'v2.13.0', 'v2.18.0'].sort(compareReleases)).toEqual([
      'v2.9.0',
      'v2.13.0',
      'v2.18.0',
      'v2.20.0',
    ]);
  });
});
