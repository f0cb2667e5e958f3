import { describe, expect, it } from 'vitest';
import { convert } from '../../../../src/lib/conversion/convert.ts';

/*
 * The operator's augmentConversionForDatabaseAccount_Spec, mirrored: what each direction does with the
 * network ACL bypass IDs and references, including what it clears. The differential test compares the
 * same conversions with the operator's own code over random objects and its samples.
 */

const group = 'documentdb.azure.com';
const id =
  '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Synapse/workspaces/w';

function account(version: string, spec: Record<string, unknown>) {
  return {
    apiVersion: `${group}/${version}`,
    kind: 'DatabaseAccount',
    metadata: { name: 'cosmos', namespace: 'default' },
    spec: { owner: { name: 'rg' }, location: 'westus', ...spec },
  };
}

const specAt = (object: unknown, version: string) =>
  convert(object, `${group}/${version}`).spec as Record<string, unknown>;

describe('Cosmos DB accounts between 2021-05-15 and 2023-11-15 (the operator hand-written step)', () => {
  it('turns each bypass ID into a reference to it on the way up, and keeps the IDs in the bag', () => {
    const spec = specAt(
      account('v1api20210515storage', { networkAclBypassResourceIds: [id, ''] }),
      'v1api20231115storage',
    );
    expect(spec.networkAclBypassResourceReferences).toEqual([{ armId: id }, {}]);
    expect(spec.$propertyBag).toEqual({ NetworkAclBypassResourceIds: JSON.stringify([id, '']) });
  });

  it('turns each reference into its ARM ID on the way down ("" for one by name), leaving no reference in the bag', () => {
    const spec = specAt(
      account('v1api20231115storage', {
        networkAclBypassResourceReferences: [
          { armId: id },
          { group: 'synapse.azure.com', kind: 'Workspace', name: 'w' },
        ],
      }),
      'v1api20210515storage',
    );
    expect(spec.networkAclBypassResourceIds).toEqual([id, '']);
    expect(spec.$propertyBag).toBeUndefined();
  });

  it('clears what the bag recalled when the other side has none, as the operator does', () => {
    const up = specAt(
      account('v1api20210515storage', {
        $propertyBag: { NetworkAclBypassResourceReferences: JSON.stringify([{ name: 'kept?' }]) },
      }),
      'v1api20231115storage',
    );
    expect(up.networkAclBypassResourceReferences).toBeUndefined();
    const down = specAt(
      account('v1api20231115storage', {
        $propertyBag: { NetworkAclBypassResourceIds: JSON.stringify([id]) },
      }),
      'v1api20210515storage',
    );
    expect(down.networkAclBypassResourceIds).toBeUndefined();
  });

  it('round-trips the references an API version at 2021-05-15 wrote as IDs', () => {
    const hub = convert(
      account('v1api20210515', { networkAclBypassResourceIds: [id] }),
      `${group}/v1api20240815`,
    );
    expect((hub.spec as Record<string, unknown>).networkAclBypassResourceReferences).toEqual([{ armId: id }]);
    const back = specAt(hub, 'v1api20210515');
    expect(back.networkAclBypassResourceIds).toEqual([id]);
  });
});
