/** The settings keys adopt-check reads from a credential secret (or the environment); values never leave this process. */
export interface CredentialSettings {
  AZURE_SUBSCRIPTION_ID?: string | undefined;
  AZURE_TENANT_ID?: string | undefined;
  AZURE_CLIENT_ID?: string | undefined;
  AZURE_CLIENT_SECRET?: string | undefined;
  AZURE_CLIENT_CERTIFICATE?: string | undefined;
  AZURE_CLIENT_CERTIFICATE_PASSWORD?: string | undefined;
  AZURE_RESOURCE_MANAGER_ENDPOINT?: string | undefined;
  AZURE_RESOURCE_MANAGER_AUDIENCE?: string | undefined;
  AZURE_AUTHORITY_HOST?: string | undefined;
}

/** The cloud settings: the secret's, else the environment's, as the operator and asoctl read them. */
export function cloudOf(
  secret: CredentialSettings,
  env: NodeJS.ProcessEnv,
): {
  endpoint: string;
  audience: string;
  authorityHost: string | undefined;
} {
  const endpoint = (
    secret.AZURE_RESOURCE_MANAGER_ENDPOINT ??
    env.AZURE_RESOURCE_MANAGER_ENDPOINT ??
    'https://management.azure.com'
  ).replace(/\/+$/, '');
  const audience =
    secret.AZURE_RESOURCE_MANAGER_AUDIENCE ??
    env.AZURE_RESOURCE_MANAGER_AUDIENCE ??
    'https://management.core.windows.net/';
  return { endpoint, audience, authorityHost: secret.AZURE_AUTHORITY_HOST ?? env.AZURE_AUTHORITY_HOST };
}
