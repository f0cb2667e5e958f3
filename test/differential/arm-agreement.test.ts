import { describe, expect, it } from 'vitest';
import { compareArmBodies, differentialResolvers } from './arm-agreement.ts';

describe('compareArmBodies', () => {
  it('agrees on equal bodies, setting aside the secrets placed where ours says', () => {
    const result = compareArmBodies(
      { name: 'a', properties: { tags: {}, login: 'x', zones: null } },
      ['properties.password', 'properties.settings'],
      {
        name: 'a',
        properties: {
          tags: {},
          login: 'x',
          password: 'secret:s/k',
          settings: { 'secret-map': 'secret:m' },
          zones: null,
        },
      },
    );
    expect(result).toEqual({ disagreements: [], secrets: 2 });
  });

  it("holds Go's empty values to account: null is not an absent property, nor an empty list or map", () => {
    const result = compareArmBodies({ properties: { ipRules: [], metadata: {}, tags: null } }, [], {
      properties: { ipRules: null, zones: null },
    });
    expect(result.disagreements.map((d) => [d.path, d.ours, d.operator])).toEqual([
      ['properties.ipRules', [], null],
      ['properties.metadata', {}, undefined],
      ['properties.tags', null, undefined],
      ['properties.zones', undefined, null],
    ]);
  });

  it('reports a value that differs, one only the operator sends, and a secret the operator puts elsewhere', () => {
    const result = compareArmBodies(
      { properties: { ipConfigurations: [{ subnet: { id: '/x' } }] } },
      ['properties.password'],
      {
        properties: {
          ipConfigurations: [{ properties: { subnet: { id: '/x' } } }],
          adminPassword: 'secret:s/k',
        },
      },
    );
    expect(result.secrets).toBe(0);
    expect(result.disagreements.map((d) => d.pattern).sort()).toEqual([
      'properties.adminPassword',
      'properties.ipConfigurations[].properties',
      'properties.ipConfigurations[].subnet',
      'properties.password',
    ]);
  });
});

describe('differentialResolvers', () => {
  it('resolve only what the operator accepts: a reference with group, kind and name, a config map key with both', () => {
    expect(differentialResolvers.armIdOf?.({ group: 'g', kind: 'K', name: 'n' }, 'p')).toMatch(
      /providers\/g\/K\/n$/,
    );
    expect(differentialResolvers.armIdOf?.({ name: 'n' }, 'p')).toBeUndefined();
    expect(differentialResolvers.configMapValue?.({ name: 'c', key: 'k' }, 'p')).toBe('configmap:c/k');
    expect(differentialResolvers.configMapValue?.({ name: '', key: 'k' }, 'p')).toBeUndefined();
  });
});

describe('compareArmBodies on map keys', () => {
  it('finds a secret under a map key that holds dots or is empty', () => {
    const result = compareArmBodies(
      { properties: { accounts: { 'a.b': {}, '': {} } } },
      ['properties.accounts["a.b"].key', 'properties.accounts[""].key'],
      {
        properties: { accounts: { 'a.b': { key: 'secret:s/k' }, '': { key: 'secret:s/j' } } },
      },
    );
    expect(result).toEqual({ disagreements: [], secrets: 2 });
  });
});
