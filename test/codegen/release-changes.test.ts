import { describe, expect, it } from 'vitest';
import type { PropertyTree, ReleaseTrees } from '../../src/codegen/import/release-trees.ts';
import { releaseHop } from '../../src/codegen/model/release-changes.ts';

const kind = 'things.azure.com/Widget';
const version = (tree: PropertyTree, storage = false, served = true) => ({ served, storage, tree });
const spec = (properties: Record<string, PropertyTree>): PropertyTree => ['o', { spec: ['o', properties] }];

describe('releaseHop', () => {
  it('lists versions removed and added, and a storage version that moves', () => {
    const older: ReleaseTrees = { [kind]: { v1: version(spec({})), v1storage: version(spec({}), true) } };
    const newer: ReleaseTrees = {
      [kind]: {
        v2: version(spec({})),
        v2storage: version(spec({}), true),
        v1storage: version(spec({}), false, false),
      },
    };
    expect(releaseHop('v2.1.0', older, 'v2.2.0', newer).kinds[kind]).toEqual({
      removedVersions: ['v1', 'v1storage'],
      addedVersions: ['v2', 'v2storage'],
      storage: { from: 'v1storage', to: 'v2storage' },
    });
  });

  it('names the topmost property removed or retyped in a version both serve, with list and map paths', () => {
    const older: ReleaseTrees = {
      [kind]: {
        v1: version(
          spec({
            sku: ['o', { name: 's', tier: 's' }],
            rules: ['l', { '[]': ['o', { port: 'i', gone: ['o', { deep: 's' }] }] }],
            tags: ['o', { '{}': 's' }],
            size: 'i',
          }),
          true,
        ),
      },
    };
    const newer: ReleaseTrees = {
      [kind]: {
        v1: version(
          spec({
            sku: ['o', { name: 's' }],
            rules: ['l', { '[]': ['o', { port: 's' }] }],
            tags: ['o', { '{}': 'i' }],
            size: ['o', { value: 'i' }],
          }),
          true,
        ),
      },
    };
    const changes = releaseHop('v2.1.0', older, 'v2.2.0', newer).kinds[kind];
    expect(changes?.removedProperties).toEqual({ v1: ['spec.sku.tier', 'spec.rules[].gone'] });
    expect(changes?.retypedProperties).toEqual({
      v1: [
        { path: 'spec.rules[].port', from: 'integer', to: 'string' },
        { path: 'spec.tags{}', from: 'string', to: 'integer' },
        { path: 'spec.size', from: 'integer', to: 'object' },
      ],
    });
  });

  it('lists kinds added and removed, and leaves unchanged kinds out', () => {
    const same = { v1: version(spec({ a: 's' }), true) };
    const hop = releaseHop('v2.1.0', { [kind]: same, 'x.azure.com/Old': same }, 'v2.2.0', {
      [kind]: same,
      'x.azure.com/New': same,
    });
    expect(hop).toEqual({
      from: 'v2.1.0',
      to: 'v2.2.0',
      addedKinds: ['x.azure.com/New'],
      removedKinds: ['x.azure.com/Old'],
      kinds: {},
    });
  });

  it('refuses a hop to an older release', () => {
    expect(() => releaseHop('v2.20.0', {}, 'v2.9.0', {})).toThrow(/newer release: v2.20.0 -> v2.9.0/);
  });
});
