import { describe, expect, it } from 'vitest';
import { convert } from '../../../../src/lib/conversion/convert.ts';

/*
 * The operator's augmentConversionForFlexibleServer_Spec, mirrored: what each direction does with a
 * replica's source server, ID or reference. The differential test compares the same conversions with the
 * operator's own code over random objects and its samples.
 */

const group = 'dbformysql.azure.com';
const id =
  '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.DBforMySQL/flexibleServers/primary';

function server(version: string, spec: Record<string, unknown>) {
  return {
    apiVersion: `${group}/${version}`,
    kind: 'FlexibleServer',
    metadata: { name: 'replica', namespace: 'default' },
    spec: { owner: { name: 'rg' }, location: 'westus', ...spec },
  };
}

const specAt = (object: unknown, version: string) =>
  convert(object, `${group}/${version}`).spec as Record<string, unknown>;

describe('MySQL flexible servers between 2021-05-01 and 2023-06-30 (the operator hand-written step)', () => {
  it('turns the source server ID into a reference to it on the way up, and takes the ID out of the bag', () => {
    const spec = specAt(server('v20210501storage', { sourceServerResourceId: id }), 'v1api20230630storage');
    expect(spec.sourceServerResourceReference).toEqual({ armId: id });
    expect(spec.$propertyBag).toBeUndefined();
  });

  it('turns an empty ID into an empty reference, as Go writes one', () => {
    const spec = specAt(server('v20210501storage', { sourceServerResourceId: '' }), 'v1api20230630storage');
    expect(spec.sourceServerResourceReference).toEqual({});
  });

  it('turns the reference into its ARM ID on the way down ("" for one by name), leaving no reference in the bag', () => {
    const byId = specAt(
      server('v1api20230630storage', { sourceServerResourceReference: { armId: id } }),
      'v20210501storage',
    );
    expect(byId.sourceServerResourceId).toBe(id);
    expect(byId.$propertyBag).toBeUndefined();
    const byName = specAt(
      server('v1api20230630storage', {
        sourceServerResourceReference: { group, kind: 'FlexibleServer', name: 'primary' },
      }),
      'v20210501storage',
    );
    expect(byName.sourceServerResourceId).toBe('');
    expect(byName.$propertyBag).toBeUndefined();
  });

  it('leaves what the bag recalled when the other side has none, as the operator does', () => {
    const up = specAt(
      server('v20210501storage', {
        $propertyBag: { SourceServerResourceReference: JSON.stringify({ name: 'primary' }) },
      }),
      'v1api20230630storage',
    );
    expect(up.sourceServerResourceReference).toEqual({ name: 'primary' });
    const down = specAt(
      server('v1api20230630storage', { $propertyBag: { SourceServerResourceId: id } }),
      'v20210501storage',
    );
    expect(down.sourceServerResourceId).toBe(id);
  });

  it('round-trips an ID an API version at 2021-05-01 holds through the hub', () => {
    const hub = convert(server('v1api20210501', { sourceServerResourceId: id }), `${group}/v20241230`);
    expect((hub.spec as Record<string, unknown>).sourceServerResourceReference).toEqual({ armId: id });
    expect(specAt(hub, 'v1api20210501').sourceServerResourceId).toBe(id);
  });
});
