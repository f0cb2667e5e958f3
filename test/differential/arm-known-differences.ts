/**
 * The kinds whose ARM body kubectl-aso does not yet build as the operator's ConvertToARM does (issue 28, item
 * 1, unfinished), each with the class of difference the ARM differential found. The differential holds every
 * other kind to exact agreement; these it reports, with their figures, and does not fail on. Each class names
 * what would remove it; a kind leaves this list when its class is fixed.
 *
 * - nested-properties: ARM nests a nested object's own properties under its `properties` (a subnet's
 *   delegation, a NIC's IP configuration); the generated layout re-nests only the resource's. Needs the
 *   operator's ARM Go types (`api/<group>/<version>/arm`) read at import, as the CRDs do not say it.
 * - nested-oneof: a oneOf below the root (a CDN rule's actions, a metric alert's criteria) is sent as the
 *   chosen option's properties with its discriminator value; the layout sends the Kubernetes wrapper.
 * - root-or-properties: a property the layout puts at the root that ARM has under `properties`, or the
 *   reverse (Redis's `sku`, App Configuration's key-value `tags`, Traffic Manager's `type`).
 * - arm-name: a property whose ARM name differs from its Kubernetes one in more than case
 *   (`resourceID`, `oauth2grantType`), or a secret or reference whose ARM name the layout gets wrong.
 * - reference-list: a list of references inside a nested object, or a reference the layout does not resolve.
 * - modifier: the operator changes the body after ConvertToARM with hand-written code (RoleAssignment's
 *   well-known role names, resolved by asking ARM); the differential compares ConvertToARM's output only.
 * - go-marshal: the operator's custom MarshalJSON for a oneOf fails on an option with nothing set, so the
 *   operator cannot send such an object at all.
 */
export const armKnownDifferences: Readonly<Record<string, string>> = {
  'alertsmanagement.azure.com/SmartDetectorAlertRule': 'reference-list',
  'apimanagement.azure.com/Api': 'reference-list',
  'apimanagement.azure.com/AuthorizationProvidersAuthorization': 'arm-name',
  'apimanagement.azure.com/NamedValue': 'root-or-properties',
  'app.azure.com/ContainerApp': 'reference-list',
  'app.azure.com/Job': 'reference-list',
  'app.azure.com/ManagedEnvironment': 'reference-list',
  'appconfiguration.azure.com/KeyValue': 'root-or-properties',
  'appconfiguration.azure.com/Snapshot': 'root-or-properties',
  'authorization.azure.com/RoleAssignment': 'modifier',
  'cache.azure.com/Redis': 'root-or-properties',
  'cdn.azure.com/ProfilesEndpoint': 'nested-properties',
  'cdn.azure.com/Rule': 'nested-oneof',
  'cdn.azure.com/Secret': 'nested-oneof',
  'cdn.azure.com/SecurityPolicy': 'nested-oneof',
  'compute.azure.com/VirtualMachineScaleSet': 'nested-properties',
  'containerinstance.azure.com/ContainerGroup': 'nested-properties',
  'datafactory.azure.com/Factory': 'nested-oneof',
  'dataprotection.azure.com/BackupVault': 'nested-properties',
  'dataprotection.azure.com/BackupVaultsBackupInstance': 'arm-name',
  'dataprotection.azure.com/BackupVaultsBackupPolicy': 'nested-oneof',
  'dbformariadb.azure.com/Server': 'nested-oneof',
  'documentdb.azure.com/DatabaseAccount': 'nested-oneof',
  'eventgrid.azure.com/Domain': 'nested-oneof',
  'eventgrid.azure.com/EventSubscription': 'nested-oneof',
  'eventgrid.azure.com/Topic': 'nested-oneof',
  'eventhub.azure.com/Namespace': 'nested-properties',
  'eventhub.azure.com/NamespacesEventhub': 'nested-properties',
  'insights.azure.com/ActionGroup': 'arm-name',
  'insights.azure.com/AutoscaleSetting': 'arm-name',
  'insights.azure.com/MetricAlert': 'nested-oneof',
  'insights.azure.com/Workbook': 'root-or-properties',
  'machinelearningservices.azure.com/WorkspacesCompute': 'nested-oneof',
  'machinelearningservices.azure.com/WorkspacesConnection': 'nested-oneof',
  'network.azure.com/ApplicationGateway': 'nested-properties',
  'network.azure.com/AzureFirewall': 'nested-properties',
  'network.azure.com/BastionHost': 'nested-properties',
  'network.azure.com/FirewallPoliciesRuleCollectionGroup': 'nested-oneof',
  'network.azure.com/FirewallPolicy': 'root-or-properties',
  'network.azure.com/LoadBalancer': 'nested-properties',
  'network.azure.com/NetworkInterface': 'nested-properties',
  'network.azure.com/PrivateEndpoint': 'nested-properties',
  'network.azure.com/PrivateEndpointsPrivateDnsZoneGroup': 'nested-properties',
  'network.azure.com/PrivateLinkService': 'nested-properties',
  'network.azure.com/TrafficManagerProfile': 'root-or-properties',
  'network.azure.com/TrafficManagerProfilesAzureEndpoint': 'root-or-properties',
  'network.azure.com/TrafficManagerProfilesExternalEndpoint': 'root-or-properties',
  'network.azure.com/TrafficManagerProfilesNestedEndpoint': 'root-or-properties',
  'network.azure.com/VirtualNetwork': 'nested-properties',
  'network.azure.com/VirtualNetworkGateway': 'nested-properties',
  'network.azure.com/VirtualNetworksSubnet': 'nested-properties',
  'network.azure.com/VirtualNetworksVirtualNetworkPeering': 'nested-properties',
  'operationalinsights.azure.com/Workspace': 'root-or-properties',
  'quota.azure.com/Quota': 'nested-oneof',
  'storage.azure.com/StorageAccount': 'root-or-properties',
};
