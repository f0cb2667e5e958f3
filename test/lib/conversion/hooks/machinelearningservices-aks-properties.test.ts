import { describe, expect, it } from 'vitest';
import { convert } from '../../../../src/lib/conversion/convert.ts';

/*
 * The operator's hand-written AssignPropertiesFrom/To for a Machine Learning AKS compute's properties,
 * mirrored: what each direction does with the load balancer subnet, ID or reference. The differential test
 * compares the same conversions with the operator's own code over random objects and its samples.
 */

const group = 'machinelearningservices.azure.com';
const subnet =
  '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/lb';

function compute(version: string, aksProperties: Record<string, unknown>) {
  return {
    apiVersion: `${group}/${version}`,
    kind: 'WorkspacesCompute',
    metadata: { name: 'aks', namespace: 'default' },
    spec: { owner: { name: 'ws' }, location: 'westus', properties: { aks: { properties: aksProperties } } },
  };
}

const aksAt = (object: unknown, version: string) => {
  const spec = convert(object, `${group}/${version}`).spec as {
    properties: { aks: { properties: Record<string, unknown> } };
  };
  return spec.properties.aks.properties;
};

describe('Machine Learning AKS computes between 2021-07-01 and 2024-04-01 (the operator hand-written step)', () => {
  it('turns the subnet ID into a reference to it on the way up, keeping the ID in the bag as the generated code left it', () => {
    const up = aksAt(compute('v1api20210701storage', { loadBalancerSubnet: subnet }), 'v1api20240401storage');
    expect(up.loadBalancerSubnetReference).toEqual({ armId: subnet });
    expect(up.$propertyBag).toEqual({ LoadBalancerSubnet: subnet });
  });

  it('turns an empty ID into an empty reference, as Go writes one', () => {
    const up = aksAt(compute('v1api20210701storage', { loadBalancerSubnet: '' }), 'v1api20240401storage');
    expect(up.loadBalancerSubnetReference).toEqual({});
  });

  it('turns a reference with an ARM ID into that ID on the way down, and takes the reference out of the bag', () => {
    const down = aksAt(
      compute('v1api20240401storage', { loadBalancerSubnetReference: { armId: subnet } }),
      'v1api20210701storage',
    );
    expect(down.loadBalancerSubnet).toBe(subnet);
    expect(down.$propertyBag).toBeUndefined();
  });

  it('keeps a Kubernetes reference (name, group and kind) in the bag on the way down, with no ID', () => {
    const reference = { group: 'network.azure.com', kind: 'VirtualNetworksSubnet', name: 'lb' };
    const down = aksAt(
      compute('v1api20240401storage', { loadBalancerSubnetReference: reference }),
      'v1api20210701storage',
    );
    expect(down.loadBalancerSubnet).toBeUndefined();
    expect(down.$propertyBag).toEqual({ LoadBalancerSubnetReference: JSON.stringify(reference) });
    // and it comes back up from the bag as it was
    const up = aksAt(compute('v1api20210701storage', down), 'v1api20240401storage');
    expect(up.loadBalancerSubnetReference).toEqual(reference);
  });

  it('turns a reference by name alone (not a Kubernetes reference to the operator) into an empty ID', () => {
    const down = aksAt(
      compute('v1api20240401storage', { loadBalancerSubnetReference: { name: 'lb' } }),
      'v1api20210701storage',
    );
    expect(down.loadBalancerSubnet).toBe('');
    expect(down.$propertyBag).toBeUndefined();
  });

  it('leaves the status, whose subnet is an ID at both versions, to the generated code', () => {
    const status = {
      ...compute('v1api20210701storage', {}),
      status: { properties: { aks: { properties: { loadBalancerSubnet: subnet } } } },
    };
    const up = convert(status, `${group}/v1api20240401storage`).status as {
      properties: { aks: { properties: Record<string, unknown> } };
    };
    expect(up.properties.aks.properties).toEqual({ loadBalancerSubnet: subnet });
  });
});
