import type { ArmReader } from '../azure/arm-reader.ts';
import { isObject } from '../conversion/checks.ts';
import type { ManifestObject } from '../manifests/read.ts';
import { generatedLayoutOf } from './desired-body.ts';
import { bodyWithLiveChildren } from './live-children.ts';

/**
 * The ARM body after the operator's hand-written changes to what ConvertToARM made, for the kinds whose
 * extension changes it before the PUT; `refused` when the operator's change itself fails (its reconcile
 * then fails before any PUT). Other kinds come back as they are. `note` says what else the operator does
 * in Azure on the way (purging a soft-deleted key vault); `unknown` when kubectl-aso could not read what
 * the operator's change depends on (its own GET failed: the operator's may not).
 */
export type ModifiedBody =
  | { body: Record<string, unknown>; note?: string }
  | { refused: string }
  | { unknown: string };

/** The API version the operator's role definition client lists with (armauthorization v2). */
const roleDefinitionsApiVersion = '2022-04-01';

const builtInRoles = new WeakMap<ArmReader, Promise<Map<string, string> | { failed: string }>>();

/**
 * Azure's built-in roles, lower-cased name -> role definition name (a GUID), listed once per reader as the
 * operator lists them once per process (`builtInRoleDefinitions`: the root scope, `BuiltInRole` only).
 */
function builtInRolesOf(reader: ArmReader): Promise<Map<string, string> | { failed: string }> {
  let roles = builtInRoles.get(reader);
  if (!roles) {
    roles = reader
      .list('/providers/Microsoft.Authorization/roleDefinitions', roleDefinitionsApiVersion)
      .then((listing) => {
        if (listing.state !== 'listed')
          return {
            failed: `could not list Azure's built-in role definitions: ${'message' in listing ? listing.message : listing.code}`,
          };
        const out = new Map<string, string>();
        for (const role of listing.entries) {
          const properties = isObject(role.properties) ? role.properties : {};
          if (
            properties.type === 'BuiltInRole' &&
            typeof properties.roleName === 'string' &&
            typeof role.name === 'string'
          )
            out.set(properties.roleName.toLowerCase(), role.name);
        }
        return out;
      });
    builtInRoles.set(reader, roles);
  }
  return roles;
}

/**
 * A RoleAssignment's `roleDefinitionReference.wellKnownName` ("Contributor") as the operator's extension
 * sends it (ASO v2.20.0 `RoleAssignmentExtension.ModifyARMResource`): the built-in role of that name, in
 * any case, as `/subscriptions/{subscription of the assignment}/providers/Microsoft.Authorization/
 * roleDefinitions/{id}`; a name no built-in role has fails the reconcile.
 */
async function roleAssignmentBody(
  object: ManifestObject,
  body: Record<string, unknown>,
  armId: string,
  reader: ArmReader,
): Promise<ModifiedBody> {
  const reference = object.spec?.roleDefinitionReference;
  const wellKnown = isObject(reference) ? reference.wellKnownName : undefined;
  if (typeof wellKnown !== 'string' || wellKnown === '') return { body };
  const roles = await builtInRolesOf(reader);
  if (!(roles instanceof Map)) return { unknown: roles.failed };
  const id = roles.get(wellKnown.toLowerCase());
  if (id === undefined)
    return {
      refused: `spec.roleDefinitionReference.wellKnownName: no Azure built-in role is named "${wellKnown}"`,
    };
  const subscription = subscriptionOf(armId);
  const properties = isObject(body.properties) ? body.properties : {};
  return {
    body: {
      ...body,
      properties: {
        ...properties,
        roleDefinitionId: `/subscriptions/${subscription}/providers/Microsoft.Authorization/roleDefinitions/${id}`,
      },
    },
  };
}

/** The API version the operator's key vault client reads deleted vaults with (armkeyvault v1.5.0). */
const deletedVaultsApiVersion = '2024-11-01';

/** The subscription an ARM ID lies in (`''` for none). */
function subscriptionOf(id: string): string {
  return /^\/subscriptions\/([^/]+)/i.exec(id)?.[1] ?? '';
}

/** The resource group an ARM ID lies in, lower-cased; undefined outside one. */
function resourceGroupOf(id: string): string | undefined {
  return /\/resourceGroups\/([^/]+)/i.exec(id)?.[1]?.toLowerCase();
}

/**
 * A key vault's `createMode` as the operator's extension sends it (ASO v2.20.0 `VaultExtension`): it asks
 * ARM for a soft-deleted vault of the same name in the vault's location; `createOrRecover` becomes
 * `recover` when there is one (in the same resource group, else the reconcile fails) and `default` when
 * there is none; `purgeThenCreate` becomes `default`, after the operator purges any such vault.
 */
async function vaultBody(
  body: Record<string, unknown>,
  armId: string,
  reader: ArmReader,
): Promise<ModifiedBody> {
  const properties = isObject(body.properties) ? body.properties : undefined;
  const mode = properties?.createMode;
  if (mode !== 'createOrRecover' && mode !== 'purgeThenCreate') return { body };
  const withMode = (createMode: string) => ({ ...body, properties: { ...properties, createMode } });
  const name = String(body.name ?? '');
  const location = typeof body.location === 'string' ? body.location : '';
  // Without a location the operator cannot look: createOrRecover fails, purgeThenCreate assumes none.
  if (location === '')
    return mode === 'purgeThenCreate'
      ? { body: withMode('default') }
      : { refused: `spec.location: needed to look for a soft-deleted vault ${name}, and not set` };
  const subscription = subscriptionOf(armId);
  const deleted = await reader.get(
    `/subscriptions/${subscription}/providers/Microsoft.KeyVault/locations/${location}/deletedVaults/${name}`,
    deletedVaultsApiVersion,
  );
  if (mode === 'purgeThenCreate') {
    if (deleted.state === 'found')
      return {
        body: withMode('default'),
        note: `ASO purges the soft-deleted key vault ${name} in ${location} first (createMode purgeThenCreate): its keys, secrets and certificates are gone for good`,
      };
    if (deleted.state === 'not-found') return { body: withMode('default') };
    // The operator goes on as if there were none when it cannot tell, and purges nothing.
    return {
      body: withMode('default'),
      note: `could not tell whether a soft-deleted key vault ${name} exists (${deleted.message}); if the operator cannot either, it purges nothing`,
    };
  }
  if (deleted.state === 'not-found') return { body: withMode('default') };
  if (deleted.state !== 'found')
    return {
      unknown: `could not tell whether a soft-deleted key vault ${name} exists, which createOrRecover needs: ${deleted.message}`,
    };
  // Where the vault was is read only when the answer has properties, as the operator reads it.
  if (isObject(deleted.body.properties)) {
    const vaultId = deleted.body.properties.vaultId;
    const was = typeof vaultId === 'string' ? resourceGroupOf(vaultId) : undefined;
    if (was === undefined)
      return {
        refused: `soft-deleted key vault ${name}: its vaultId ${JSON.stringify(vaultId)} is no ARM ID`,
      };
    const now = resourceGroupOf(armId);
    if (was !== now)
      return {
        refused: `cannot recover key vault ${name}: it was deleted from resource group ${was}, not ${now ?? '(none)'}`,
      };
  }
  return {
    body: withMode('recover'),
    note: `ASO recovers the soft-deleted key vault ${name} (createMode createOrRecover)`,
  };
}

/**
 * The body the operator PUTs for `object`, from the one ConvertToARM makes: its extensions' changes
 * applied where kubectl-aso knows them (RoleAssignment's well-known role names, a key vault's create
 * mode, each read from ARM with the same reader as the resource; the child collections it copies from
 * `live`, the resource as Azure holds it, undefined when it does not exist). Exists so that the what-if compares Azure with the body really sent.
 */
export async function operatorModifiedBody(
  object: ManifestObject,
  body: Record<string, unknown>,
  armId: string,
  reader: ArmReader,
  live?: Record<string, unknown>,
): Promise<ModifiedBody> {
  if (object.kind === 'RoleAssignment' && object.apiVersion.startsWith('authorization.azure.com/'))
    return roleAssignmentBody(object, body, armId, reader);
  if (object.kind === 'Vault' && object.apiVersion.startsWith('keyvault.azure.com/'))
    return vaultBody(body, armId, reader);
  const [group = '', version = ''] = object.apiVersion.split('/');
  const children = (await generatedLayoutOf(group, version, object.kind))?.liveChildren;
  return children ? bodyWithLiveChildren(body, live, children) : { body };
}
