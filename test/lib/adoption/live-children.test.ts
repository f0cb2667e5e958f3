import { describe, expect, it } from 'vitest';
import { generatedLayoutOf } from '../../../src/lib/adoption/desired-body.ts';
import { bodyWithLiveChildren } from '../../../src/lib/adoption/live-children.ts';
import type { LiveChildren } from '../../../src/lib/conversion/arm.ts';

async function childrenOf(group: string, version: string, kind: string): Promise<LiveChildren> {
  const children = (await generatedLayoutOf(group, version, kind))?.liveChildren;
  if (!children) throw new Error(`${group} ${version} ${kind}: no child collection in its generated layout`);
  return children;
}

const vnetId = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet';

/** A subnet as Azure returns it: read-only fields the operator's Go type does not hold, beside those it does. */
const liveSubnet = {
  id: `${vnetId}/subnets/app`,
  name: 'app',
  etag: 'W/"7"',
  type: 'Microsoft.Network/virtualNetworks/subnets',
  properties: {
    provisioningState: 'Succeeded',
    addressPrefix: '10.0.1.0/24',
    ipConfigurations: [{ id: `${vnetId}/nic/ipconfig` }],
    privateEndpointNetworkPolicies: 'Disabled',
    networkSecurityGroup: { id: '/nsg/a', etag: 'W/"1"', location: 'westus' },
    delegations: [
      {
        id: `${vnetId}/subnets/app/delegations/sql`,
        name: 'sql',
        etag: 'W/"7"',
        properties: { serviceName: 'Microsoft.Sql/managedInstances', actions: ['join'] },
      },
    ],
    serviceEndpoints: [],
  },
};

describe("the operator's copy of Azure's child collections into its PUT", () => {
  it("puts a virtual network's subnets from Azure in the body, each with only what the Go type holds", async () => {
    const children = await childrenOf('network.azure.com', 'v1api20240301', 'VirtualNetwork');
    expect(children).toMatchObject({ path: 'properties.subnets', merge: 'replace' });
    const body = { location: 'westus', properties: { addressSpace: { addressPrefixes: ['10.0.0.0/16'] } } };
    const live = { ...body, properties: { ...body.properties, subnets: [liveSubnet, null] } };
    expect(bodyWithLiveChildren(body, live, children)).toEqual({
      body: {
        location: 'westus',
        properties: {
          addressSpace: { addressPrefixes: ['10.0.0.0/16'] },
          subnets: [
            {
              id: `${vnetId}/subnets/app`,
              name: 'app',
              type: 'Microsoft.Network/virtualNetworks/subnets',
              properties: {
                addressPrefix: '10.0.1.0/24',
                privateEndpointNetworkPolicies: 'Disabled',
                networkSecurityGroup: { id: '/nsg/a' },
                delegations: [{ name: 'sql', properties: { serviceName: 'Microsoft.Sql/managedInstances' } }],
              },
            },
            // A null element decodes as the zero struct.
            {},
          ],
        },
      },
    });
    expect(body.properties).not.toHaveProperty('subnets');
  });

  it("matches Azure's names without regard to case and writes the Go type's spelling", async () => {
    // 2020-11-01's Go type spells it `applicationGatewayIpConfigurations`; ARM returns `...IPConfigurations`.
    const children = await childrenOf('network.azure.com', 'v1api20201101', 'VirtualNetwork');
    const live = {
      properties: {
        subnets: [{ name: 'gw', properties: { applicationGatewayIPConfigurations: [{ id: '/agw/ip' }] } }],
      },
    };
    expect(bodyWithLiveChildren({ properties: {} }, live, children)).toEqual({
      body: {
        properties: {
          subnets: [{ name: 'gw', properties: { applicationGatewayIpConfigurations: [{ id: '/agw/ip' }] } }],
        },
      },
    });
  });

  it('sends the body as it is when the resource does not exist, and nothing for an empty collection', async () => {
    const children = await childrenOf('network.azure.com', 'v1api20240301', 'RouteTable');
    const body = { location: 'westus', properties: { disableBgpRoutePropagation: true } };
    expect(bodyWithLiveChildren(body, undefined, children)).toEqual({ body });
    expect(bodyWithLiveChildren(body, { properties: { routes: [] } }, children)).toEqual({ body });
    // The operator's reflection makes the `properties` the body lacks, even for no routes.
    expect(bodyWithLiveChildren({ location: 'westus' }, { properties: { routes: [] } }, children)).toEqual({
      body: { location: 'westus', properties: {} },
    });
  });

  it('fails where the operator fails: Azure answers without the collection, or with an element not an object', async () => {
    const children = await childrenOf('network.azure.com', 'v20250301', 'NetworkSecurityGroup');
    expect(bodyWithLiveChildren({}, { location: 'westus' }, children)).toEqual({
      refused: "Azure's resource has no object properties",
    });
    expect(bodyWithLiveChildren({}, { properties: { securityRules: null } }, children)).toEqual({
      refused: "Azure's resource has no list properties.securityRules",
    });
    expect(bodyWithLiveChildren({}, { properties: { securityRules: ['rule'] } }, children)).toEqual({
      refused: "properties.securityRules[0]: Azure's value is not an object",
    });
  });

  it("keeps a load balancer's own NAT rules whole and adds Azure's whose name none of them has", async () => {
    const children = await childrenOf('network.azure.com', 'v1api20240301', 'LoadBalancer');
    expect(children).toMatchObject({ path: 'properties.inboundNatRules', merge: 'byName' });
    const mine = { name: 'ssh', properties: { protocol: 'Tcp', frontendPort: 2222, backendPort: 22 } };
    const body = { properties: { inboundNatRules: [mine] } };
    const azureRule = (name: string, port: number) => ({
      id: `/lb/inboundNatRules/${name}`,
      name,
      etag: 'W/"2"',
      type: 'Microsoft.Network/loadBalancers/inboundNatRules',
      properties: {
        protocol: 'Tcp',
        frontendPort: port,
        backendPort: port,
        enableFloatingIP: false,
        backendIPConfiguration: { id: '/nic/ip' },
        provisioningState: 'Succeeded',
      },
    });
    const live = {
      properties: {
        inboundNatRules: [azureRule('ssh', 2200), azureRule('SSH', 2201), azureRule('rdp', 3389)],
      },
    };
    const kept = (name: string, port: number) => ({
      name,
      properties: { protocol: 'Tcp', frontendPort: port, backendPort: port, enableFloatingIP: false },
    });
    // Names compare exactly: `SSH` is another rule than `ssh`.
    expect(bodyWithLiveChildren(body, live, children)).toEqual({
      body: { properties: { inboundNatRules: [mine, kept('SSH', 2201), kept('rdp', 3389)] } },
    });
    // A body without rules of its own takes Azure's.
    expect(bodyWithLiveChildren({ properties: {} }, live, children)).toEqual({
      body: { properties: { inboundNatRules: [kept('ssh', 2200), kept('SSH', 2201), kept('rdp', 3389)] } },
    });
  });

  it("merges a scale set's extensions by name, and leaves the body alone when Azure has no extension profile", async () => {
    const children = await childrenOf('compute.azure.com', 'v1api20220301', 'VirtualMachineScaleSet');
    const profile = { properties: { virtualMachineProfile: { osProfile: { computerNamePrefix: 'vm' } } } };
    expect(bodyWithLiveChildren(profile, { properties: { virtualMachineProfile: {} } }, children)).toEqual({
      body: profile,
    });
    expect(
      bodyWithLiveChildren(
        profile,
        { properties: { virtualMachineProfile: { extensionProfile: {} } } },
        children,
      ),
    ).toEqual({
      refused: "Azure's resource has no list properties.virtualMachineProfile.extensionProfile.extensions",
    });
    // A parent Azure gives as null is there, and not a map: the operator's walk fails on it (vmss_extensions.go
    // getRawExactParentRecursively), where an absent one ends the walk with nothing to copy.
    expect(
      bodyWithLiveChildren(
        profile,
        { properties: { virtualMachineProfile: { extensionProfile: null } } },
        children,
      ),
    ).toEqual({
      refused: "Azure's resource has no object properties.virtualMachineProfile.extensionProfile",
    });
    const live = {
      properties: {
        virtualMachineProfile: {
          extensionProfile: {
            extensions: [
              {
                id: '/vmss/extensions/monitor',
                name: 'monitor',
                type: 'Microsoft.Compute/virtualMachineScaleSets/extensions',
                properties: {
                  publisher: 'Microsoft.Azure.Monitor',
                  type: 'AzureMonitorLinuxAgent',
                  typeHandlerVersion: '1.0',
                  settings: { workspace: { id: 'w' } },
                  provisioningState: 'Succeeded',
                },
              },
            ],
          },
        },
      },
    };
    expect(bodyWithLiveChildren(profile, live, children)).toEqual({
      body: {
        properties: {
          virtualMachineProfile: {
            osProfile: { computerNamePrefix: 'vm' },
            extensionProfile: {
              extensions: [
                {
                  name: 'monitor',
                  properties: {
                    publisher: 'Microsoft.Azure.Monitor',
                    type: 'AzureMonitorLinuxAgent',
                    typeHandlerVersion: '1.0',
                    settings: { workspace: { id: 'w' } },
                  },
                },
              ],
            },
          },
        },
      },
    });
  });
});
