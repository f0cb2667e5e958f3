/**
 * The ARM resource types whose schemas `npm run schemas:import` writes from the operator's CRDs; the
 * others are still written by hand. Kinds move here one at a time, each with the generated CRDs and the
 * differential tests checked, so that a disagreement is found kind by kind.
 */
export const importedTypes: readonly string[] = [
  'Microsoft.Authorization/roleAssignments',
  'Microsoft.DBforPostgreSQL/flexibleServers',
  'Microsoft.DBforPostgreSQL/flexibleServers/databases',
  'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules',
  'Microsoft.KeyVault/vaults',
  'Microsoft.Kusto/clusters',
  'Microsoft.Kusto/clusters/databases',
  'Microsoft.ManagedIdentity/userAssignedIdentities',
  'Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials',
  'Microsoft.Resources/resourceGroups',
  'Microsoft.Sql/servers',
  'Microsoft.Sql/servers/databases',
  'Microsoft.Sql/servers/firewallRules',
  'Microsoft.Storage/storageAccounts',
  'Microsoft.Storage/storageAccounts/blobServices',
  'Microsoft.Storage/storageAccounts/blobServices/containers',
];
