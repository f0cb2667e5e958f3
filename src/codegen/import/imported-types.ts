/**
 * The ARM resource types whose schemas `npm run schemas:import` writes from the operator's CRDs; the
 * others are still written by hand. Kinds move here one at a time, each with the generated CRDs and the
 * differential tests checked, so that a disagreement is found kind by kind.
 */
export const importedTypes: readonly string[] = [
  'Microsoft.Authorization/roleAssignments',
  'Microsoft.Batch/batchAccounts',
  'Microsoft.ContainerRegistry/registries',
  'Microsoft.ContainerRegistry/registries/replications',
  'Microsoft.DBforPostgreSQL/flexibleServers',
  'Microsoft.DBforPostgreSQL/flexibleServers/databases',
  'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules',
  'Microsoft.Devices/IotHubs',
  'Microsoft.KeyVault/vaults',
  'Microsoft.Kusto/clusters',
  'Microsoft.Kusto/clusters/databases',
  'Microsoft.Kusto/clusters/databases/dataConnections',
  'Microsoft.Kusto/clusters/databases/principalAssignments',
  'Microsoft.ManagedIdentity/userAssignedIdentities',
  'Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials',
  'Microsoft.Monitor/accounts',
  'Microsoft.OperationalInsights/workspaces',
  'Microsoft.RedHatOpenShift/openShiftClusters',
  'Microsoft.Resources/resourceGroups',
  'Microsoft.Sql/servers',
  'Microsoft.Sql/servers/databases',
  'Microsoft.Sql/servers/firewallRules',
  'Microsoft.Storage/storageAccounts',
  'Microsoft.Storage/storageAccounts/blobServices',
  'Microsoft.Storage/storageAccounts/blobServices/containers',
  'Microsoft.Subscription/aliases',
];
