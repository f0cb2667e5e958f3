import type { TokenCredential } from '@azure/core-auth';
import { isObject } from '../conversion/checks.ts';
import { parseJson } from '../json/parse-json.ts';
import { type CredentialSettings, cloudOf } from './credential-settings.ts';
import { ArmGaveUp } from './errors.ts';
import { azureLibraries } from './libraries.ts';
import { Limiter } from './limiter.ts';
import {
  type AttemptFailure,
  defaultRetryOptions,
  noHeaders,
  type ResponseHeaders,
  type RetryClock,
  RetryGate,
  type RetryOptions,
  systemClock,
  withRetry,
} from './retry.ts';

/**
 * The @azure/identity credential the operator would use with these settings (client secret, else
 * certificate, else what the environment offers: workload or managed identity), or the user's login for
 * `local`. Imported lazily, so commands that never reach Azure never load the Azure libraries.
 */
export async function tokenCredentialOf(
  mode: CredentialMode,
  settings: CredentialSettings,
  env: NodeJS.ProcessEnv,
): Promise<TokenCredential> {
  const { identity } = await azureLibraries();
  const cloud = cloudOf(settings, env);
  const authority = cloud.authorityHost
    ? { authorityHost: cloud.authorityHost, disableInstanceDiscovery: true }
    : {};
  if (mode === 'local') return new identity.DefaultAzureCredential(authority);
  if (settings.AZURE_CLIENT_SECRET) {
    return new identity.ClientSecretCredential(
      settings.AZURE_TENANT_ID ?? '',
      settings.AZURE_CLIENT_ID ?? '',
      settings.AZURE_CLIENT_SECRET,
      authority,
    );
  }
  if (settings.AZURE_CLIENT_CERTIFICATE) {
    return new identity.ClientCertificateCredential(
      settings.AZURE_TENANT_ID ?? '',
      settings.AZURE_CLIENT_ID ?? '',
      {
        certificate: settings.AZURE_CLIENT_CERTIFICATE,
        ...(settings.AZURE_CLIENT_CERTIFICATE_PASSWORD
          ? { certificatePassword: settings.AZURE_CLIENT_CERTIFICATE_PASSWORD }
          : {}),
      },
      authority,
    );
  }
  // Workload identity and managed identity: what the environment offers.
  return new identity.DefaultAzureCredential(authority);
}

/** What a GET by ID said about one resource. */
export type ArmLookup =
  | { state: 'found'; body: Record<string, unknown> }
  | { state: 'not-found'; code: string }
  | { state: 'forbidden'; message: string }
  | { state: 'error'; message: string };

/** What listing an ARM collection gave: every entry of every page, or why there are none. */
export type ArmListing =
  | { state: 'listed'; entries: Record<string, unknown>[] }
  | Exclude<ArmLookup, { state: 'found' }>;

/** Reads ARM resources by ID, and collections by path; read-only by construction (it only reads). */
export interface ArmReader {
  get(id: string, apiVersion: string): Promise<ArmLookup>;
  /** Every entry of a collection (`/providers/Microsoft.Authorization/roleDefinitions`), page by page. */
  list(path: string, apiVersion: string): Promise<ArmListing>;
}

/** How to authenticate: the operator's own credential (from its secret) or the user's login. */
export type CredentialMode = 'operator' | 'local';

/**
 * Builds a reader over `@azure/arm-resources`' `resources.getById`, with the @azure/identity class the
 * operator's secret calls for (client secret, else certificate) or `DefaultAzureCredential` for `local`.
 * The Azure libraries are imported here, lazily, so `--help` and `status` never load them. The SDK's own
 * retry is off: 429 and 5xx go through {@link withRetry} (Retry-After, `x-ms-ratelimit-remaining-*`,
 * jittered backoff, a deadline per resource), and a resource given up on is answered as an error naming it.
 * Each attempt takes a slot of `limiter` only while on the wire, so waits do not hold up other resources.
 */
export async function armReaderOf(
  mode: CredentialMode,
  settings: CredentialSettings,
  env: NodeJS.ProcessEnv,
  retry: Partial<RetryOptions> = {},
  limiter: Limiter = new Limiter(16),
  clock: RetryClock = systemClock,
): Promise<ArmReader> {
  const { ResourceManagementClient } = (await azureLibraries()).armResources;
  const cloud = cloudOf(settings, env);
  const credential = await tokenCredentialOf(mode, settings, env);
  const audience = cloud.audience.replace(/\/+$/, '');
  const client = new ResourceManagementClient(
    credential,
    settings.AZURE_SUBSCRIPTION_ID ?? '00000000-0000-0000-0000-000000000000',
    {
      endpoint: cloud.endpoint,
      credentials: { scopes: [`${audience}/.default`] },
      retryOptions: { maxRetries: 0 },
    },
  );
  const options = { ...defaultRetryOptions, ...retry };
  const gate = new RetryGate();
  /** One GET through the retry; the JSON text ARM answered, for a caller that needs more than the mapped body. */
  const read = async (id: string, apiVersion: string) => {
    let text: string | undefined;
    const body = await withRetry(
      () =>
        client.resources.getById(id, apiVersion, {
          onResponse: (raw) => {
            text = raw.bodyAsText ?? undefined;
            gate.observe(headersOf(raw), clock.now(), options.budgetPauseMs);
          },
        }),
      {
        resource: id,
        options,
        clock,
        gate,
        classify: failureOf,
        slot: (work) => limiter.run(work),
      },
    );
    return { body, text };
  };
  return {
    async get(id, apiVersion) {
      try {
        const { body } = await read(id, apiVersion);
        return { state: 'found', body: body as unknown as Record<string, unknown> };
      } catch (error) {
        if (error instanceof ArmGaveUp) return { state: 'error', message: error.message };
        return lookupOfError(error);
      }
    },
    async list(path, apiVersion) {
      // The SDK has no generic listing: each page is read as a GET by ID (a path with its query), and the
      // entries taken from the JSON ARM sent, which the SDK's resource mapping would drop.
      const entries: Record<string, unknown>[] = [];
      let next: string | undefined = path;
      try {
        for (let pages = 0; next !== undefined && pages < maxListPages; pages++) {
          const { text } = await read(next, apiVersion);
          const page = parseJsonObject(text);
          if (!page || !Array.isArray(page.value))
            return { state: 'error', message: `${path}: ARM's answer is not a list` };
          for (const entry of page.value)
            if (typeof entry === 'object' && entry !== null) entries.push(entry as Record<string, unknown>);
          next = typeof page.nextLink === 'string' ? pathOfNextLink(page.nextLink) : undefined;
        }
        // A listing cut short would read as entries missing, not as a listing that failed.
        if (next !== undefined)
          return { state: 'error', message: `${path}: still a next page after ${maxListPages} pages` };
        return { state: 'listed', entries };
      } catch (error) {
        if (error instanceof ArmGaveUp) return { state: 'error', message: error.message };
        const lookup = lookupOfError(error);
        return lookup.state === 'found' ? { state: 'error', message: 'unexpected answer' } : lookup;
      }
    },
  };
}

/** Pages a listing follows at most: ARM's role definitions fit in a few; more means a link that loops. */
const maxListPages = 100;

/** A `nextLink` as the path and query a GET by ID takes: its own api-version dropped, as the GET adds one. */
function pathOfNextLink(link: string): string {
  const url = new URL(link);
  url.searchParams.delete('api-version');
  const query = url.searchParams.toString();
  return query === '' ? url.pathname : `${url.pathname}?${query}`;
}

function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value = parseJson(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The headers of a pipeline response, in the shape the retry reads. */
function headersOf(
  response:
    | { headers?: { get(name: string): string | undefined; toJSON(): Record<string, string> } }
    | undefined,
): ResponseHeaders {
  if (!response?.headers) return noHeaders;
  const { headers } = response;
  return { get: (name) => headers.get(name), names: Object.keys(headers.toJSON()) };
}

/** What a thrown SDK error says for retrying: its status, ARM's code and the headers; undefined for anything else. */
export function failureOf(error: unknown): AttemptFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as {
    name?: string;
    statusCode?: number;
    code?: string;
    response?: Parameters<typeof headersOf>[0];
  };
  if (e.name !== 'RestError') return undefined;
  return { status: e.statusCode, code: e.code, headers: headersOf(e.response) };
}

/** Maps an SDK error to an answer; never includes tokens or secret values (only ARM's code and message). */
export function lookupOfError(error: unknown): ArmLookup {
  const e = error as { statusCode?: number; code?: string; message?: string };
  if (e.statusCode === 404) return { state: 'not-found', code: e.code ?? 'ResourceNotFound' };
  if (e.statusCode === 403)
    return { state: 'forbidden', message: `no permission to read it (${e.code ?? '403'})` };
  if (e.statusCode === 401)
    return { state: 'error', message: `credential rejected by ARM (${e.code ?? '401'})` };
  return { state: 'error', message: e.message?.split('\n')[0] ?? String(error) };
}

/** Runs `work` over `items` with at most `limit` at a time, keeping results in order. */
export async function mapBounded<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  });
  await Promise.all(workers);
  return results;
}
