import { describe, expect, it } from 'vitest';
import { isSubscriptionId } from '../../../src/lib/adoption/arm-id-input.ts';
import { resolveArmIds } from '../../../src/lib/adoption/resolve-arm-id.ts';

const sub = '00000000-0000-0000-0000-000000000001';

/** A manifest object as the reader yields it, built here so the test does not depend on the reader. */
function object(kind: string, apiVersion: string, name: string, spec: Record<string, unknown>) {
  return { apiVersion, kind, metadata: { name, namespace: 'ns' }, spec } as never;
}

const rg = (name: string, azureName?: string) =>
  object('ResourceGroup', 'resources.azure.com/v1api20200601', name, {
    location: 'westus',
    ...(azureName === undefined ? {} : { azureName }),
  });
const pg = (name: string, owner: Record<string, unknown>, azureName?: string) =>
  object('FlexibleServer', 'dbforpostgresql.azure.com/v1api20221201', name, {
    owner,
    ...(azureName === undefined ? {} : { azureName }),
  });

function idsOf(objects: never[], subscription: string = sub) {
  const answers = resolveArmIds(objects, {
    objects,
    crds: new Map(),
    subscriptionOf: () => subscription,
    defaultNamespace: 'default',
  });
  return objects.map((o) => answers.get(o));
}

describe('ARM IDs built from user input never change the path they name', () => {
  it('encodes /, ? and # in an azureName, so the name stays one segment', () => {
    const [group, server] = idsOf([rg('rg', 'x/../y?a#b'), pg('pg', { name: 'rg' }, '../../x?y#z')]);
    expect(group?.armId).toBe(`/subscriptions/${sub}/resourceGroups/x%2F..%2Fy%3Fa%23b`);
    expect(
      server?.armId?.startsWith(`${group?.armId}/providers/Microsoft.DBforPostgreSQL/flexibleServers/`),
    ).toBe(true);
    for (const answer of [group, server]) {
      const path = new URL(`https://management.azure.com${answer?.armId}`).pathname;
      expect(path).toBe(answer?.armId);
    }
  });

  it.each(['..', '.'])('refuses the name %j, which a URL would resolve away', (name) => {
    const [group, server] = idsOf([rg('rg', name), pg('pg', { name: 'rg' })]);
    expect(group).toMatchObject({ unknown: expect.stringContaining('azureName') });
    expect(group?.armId).toBeUndefined();
    expect(server?.armId).toBeUndefined();
  });

  it('refuses an owner armId that would leave its path (?, #, .. segments)', () => {
    for (const armId of [
      `/subscriptions/${sub}/resourceGroups/rg?x=1`,
      `/subscriptions/${sub}/resourceGroups/rg#x`,
      `/subscriptions/${sub}/resourceGroups/../../x`,
      'subscriptions/no-leading-slash',
    ]) {
      const [server] = idsOf([pg('pg', { armId })]);
      expect(server?.armId, armId).toBeUndefined();
      expect(server).toMatchObject({ unknown: expect.stringContaining('owner armId') });
    }
  });

  it('refuses a subscription that is not a GUID instead of putting it in the path', () => {
    const [group] = idsOf([rg('rg')], '../../x?y#z');
    expect(group?.armId).toBeUndefined();
    expect(group).toMatchObject({ unknown: expect.stringContaining('subscription') });
  });
});

describe('isSubscriptionId', () => {
  it('takes a GUID in either case and nothing else', () => {
    expect(isSubscriptionId(sub)).toBe(true);
    expect(isSubscriptionId('ABCDEF00-0000-0000-0000-0000000000AB')).toBe(true);
    for (const bad of [
      '',
      '../../x?y#z',
      `${sub}/x`,
      `${sub} `,
      's2',
      '{00000000-0000-0000-0000-000000000001}',
    ])
      expect(isSubscriptionId(bad), bad).toBe(false);
  });
});
