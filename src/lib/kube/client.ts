import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { apiErrorOf, transportErrorOf } from './api-errors.ts';
import type { ResolvedKubeconfig } from './kubeconfig.ts';

/** What a request is about, in the user's terms, so that an error can say which verb on what failed. */
export interface RequestSubject {
  verb: string;
  resource: string;
  namespace?: string | undefined;
}

/** One call to the API server. */
export interface KubeRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  subject: RequestSubject;
  /** Overrides --request-timeout; watches pass 0 to stay open. */
  timeoutMs?: number;
  /** The Accept header; `application/json` unless a caller negotiates another shape (e.g. aggregated discovery). */
  accept?: string;
}

/**
 * A small client over the API server's REST paths. Credentials, TLS and exec plugins come from
 * @kubernetes/client-node; requests are made here so that paging, watching and timeouts are explicit and
 * every failure becomes one of the typed errors in `errors.ts`.
 */
export class KubeClient {
  readonly kubeconfig: ResolvedKubeconfig;

  constructor(kubeconfig: ResolvedKubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  /** The server address, for messages. */
  get server(): string {
    return this.kubeconfig.server;
  }

  /** Sends a request and parses a JSON answer; any non-2xx answer is thrown as a typed error. */
  async request<T>(request: KubeRequest): Promise<T> {
    const response = await this.open(request);
    const text = await readBody(response);
    if ((response.statusCode ?? 0) >= 300) {
      throw apiErrorOf(response.statusCode ?? 0, text, request.subject, this.server);
    }
    return (text.length === 0 ? undefined : JSON.parse(text)) as T;
  }

  /** Opens a request and hands back the response stream once the status is known to be 2xx (for watches). */
  async stream(request: KubeRequest): Promise<IncomingMessage> {
    const response = await this.open(request);
    if ((response.statusCode ?? 0) >= 300) {
      throw apiErrorOf(response.statusCode ?? 0, await readBody(response), request.subject, this.server);
    }
    return response;
  }

  private async open(request: KubeRequest): Promise<IncomingMessage> {
    const url = new URL(this.server + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    }
    const options: https.RequestOptions = {
      method: request.method ?? 'GET',
      headers: { accept: request.accept ?? 'application/json' },
    };
    await this.kubeconfig.config.applyToHTTPSOptions(options);
    const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    options.headers = {
      ...options.headers,
      ...(body
        ? { 'content-type': request.contentType ?? 'application/json', 'content-length': body.length }
        : {}),
    };
    const timeoutMs = request.timeoutMs ?? this.kubeconfig.requestTimeoutMs;
    const transport = url.protocol === 'http:' ? http : https;
    if (url.protocol === 'http:') delete options.agent;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = transport.request(url, options, resolve);
      req.on('error', (error) => reject(transportErrorOf(error, this.server)));
      if (timeoutMs > 0) {
        req.setTimeout(timeoutMs, () => {
          req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
        });
      }
      req.end(body);
    });
  }
}

async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
