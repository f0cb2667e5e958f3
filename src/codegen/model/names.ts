/**
 * ASO's naming of kinds and groups, in one place so that every stage and emitter agrees with the operator.
 */

/** `Microsoft.DBforPostgreSQL` -> `dbforpostgresql`. */
export function groupOf(provider: string): string {
  return provider.replace(/^Microsoft\./i, '').toLowerCase();
}

/**
 * The operator's group of an ARM resource type: its provider's, unless the config names another
 * (`Microsoft.Network/FrontDoorWebApplicationFirewallPolicies` is `network.frontdoor`).
 */
export function groupOfType(groups: Readonly<Record<string, string>>, armType: string): string {
  return groups[armType] ?? groupOf(armType.split('/')[0] ?? '');
}

/**
 * The kind of an ARM resource type: each segment PascalCased, the last singularised:
 * `flexibleServers/databases` -> `FlexibleServersDatabase`, `resourceGroups` -> `ResourceGroup`.
 */
export function kindOf(typePath: string): string {
  const segments = typePath.split('/');
  return segments
    .map((segment, index) => {
      const word = index === segments.length - 1 ? singular(segment) : segment;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join('');
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The plural resource name Kubernetes serves a kind under: `FlexibleServersDatabase` -> `flexibleserversdatabases`. */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  return lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
}

/** The status-side name of a type, as ASO suffixes it: `Sku` -> `Sku_STATUS`. */
export function statusName(typeName: string): string {
  return `${typeName}_STATUS`;
}

/** A safe TypeScript identifier fragment for a version or name (`v1api20210601` stays as is). */
export function ident(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_');
}

/**
 * The operator's name for the reference replacing an ARM ID property: `roleDefinitionId` ->
 * `roleDefinitionReference`, `id` -> `reference`; an ARM ID whose name lacks the `Id` suffix gets
 * `Reference` appended, as the operator does (Kusto's `keyVaultProperties.userIdentity` ->
 * `userIdentityReference`).
 */
export function referenceName(property: string): string {
  if (property === 'id') return 'reference';
  const match = /^(.+?)(Id|ID)$/.exec(property);
  return `${match ? match[1] : property}Reference`;
}

/**
 * The operator's name for the list of references replacing a list of ARM IDs: `dnsZoneResourceIds` ->
 * `dnsZoneResourceReferences`, `groupIds` -> `groupReferences`; a list whose name lacks the `Ids` suffix gets
 * `References` appended (`scopes` -> `scopesReferences`), as the operator does.
 */
export function referencesName(property: string): string {
  const match = /^(.+?)(Ids|IDs)$/.exec(property);
  return `${match ? match[1] : property}References`;
}
