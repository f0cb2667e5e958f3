import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { parseJson } from '../json/parse-json.ts';
import { apiErrorOf, transportErrorOf } from './api-errors.ts';
import { RequestCancelled, UnexpectedResponse } from './errors.ts';
import { Http2Streams, http2Possible } from './http2-streams.ts';
import type { ResolvedKubeconfig } from './kubeconfig.ts';
import { retryDelayMs } from './retry.ts';

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
  /**
   * Cancels the request, its retries and (for a stream) the open response: a run that has failed or
   * finished stops its other lists at once instead of leaving them to run out. Rejects with
   * {@link RequestCancelled}.
   */
  signal?: AbortSignal | undefined;
}

/**
 * A small client over the API server's REST paths. Credentials, TLS and exec plugins come from
 * @kubernetes/client-node; requests are made here so that paging, watching and timeouts are explicit and
 * every failure becomes one of the typed errors in `errors.ts`.
 */
export class KubeClient {
  readonly kubeconfig: ResolvedKubeconfig;
  /** Watches share a few HTTP/2 connections; undefined once the server is known not to speak HTTP/2. */
  private streams: Http2Streams | undefined;

  constructor(kubeconfig: ResolvedKubeconfig) {
    this.kubeconfig = kubeconfig;
    this.streams = new Http2Streams(new URL(kubeconfig.server).origin);
  }

  /** HTTP/2 connections open for streams now (tests and benchmarks count them). */
  get streamConnections(): number {
    return this.streams?.connections ?? 0;
  }

  /** The server address, for messages. */
  get server(): string {
    return this.kubeconfig.server;
  }

  /**
   * Sends a request and parses a JSON answer; any non-2xx answer is thrown as a typed error. A GET is
   * retried on throttling, passing server errors and dropped connections (see `retry.ts`).
   */
  async request<T>(request: KubeRequest): Promise<T> {
    const idempotent = (request.method ?? 'GET') === 'GET';
    for (let attempt = 1; ; attempt++) {
      let response: IncomingMessage;
      try {
        response = await this.open(request);
      } catch (error) {
        const code = (error as { transportCode?: string }).transportCode;
        const delay = idempotent ? retryDelayMs(attempt, { code }) : undefined;
        if (delay === undefined || error instanceof RequestCancelled) throw error;
        await sleep(delay, request);
        continue;
      }
      const text = await readBody(response, request);
      const status = response.statusCode ?? 0;
      if (status < 300) {
        if (text.length === 0) return undefined as T;
        try {
          return parseJson(text) as T;
        } catch {
          throw new UnexpectedResponse(
            this.server,
            `${request.subject.verb} ${request.subject.resource}`,
            `${response.headers['content-type'] ?? 'no content-type'}, ${text.length} characters`,
          );
        }
      }
      const retryAfter = response.headers['retry-after'];
      const delay = idempotent ? retryDelayMs(attempt, { status, retryAfter }) : undefined;
      if (delay === undefined) throw apiErrorOf(status, text, request.subject, this.server);
      await sleep(delay, request);
    }
  }

  /**
   * Opens a request and hands back the response body once the status is known to be 2xx (for watches):
   * over HTTP/2 when the server and the credentials allow it, so that any number of watches share a few
   * connections (`http2-streams.ts`), else over HTTP/1.1.
   */
  async stream(request: KubeRequest): Promise<Readable> {
    const { statusCode, body } = await this.openStream(request);
    if (statusCode >= 300) {
      throw apiErrorOf(statusCode, await readBody(body, request), request.subject, this.server);
    }
    return body;
  }

  private async openStream(request: KubeRequest): Promise<{ statusCode: number; body: Readable }> {
    const streams = this.streams;
    if (streams && (request.method ?? 'GET') === 'GET') {
      if (request.signal?.aborted) throw cancelled(request);
      const url = this.urlOf(request);
      const options: https.RequestOptions = { headers: { accept: request.accept ?? 'application/json' } };
      await this.kubeconfig.config.applyToHTTPSOptions(options);
      if (http2Possible(url, options)) {
        const timeoutMs = request.timeoutMs ?? this.kubeconfig.requestTimeoutMs;
        try {
          return await streams.get(url.pathname + url.search, options, timeoutMs, request.signal);
        } catch (error) {
          if (request.signal?.aborted) throw cancelled(request);
          const failure = error as Error & { code?: string };
          // Never connected over HTTP/2: the server (or something in between) may not speak it.
          if (!streams.connectedOnce) this.streams = undefined;
          else
            throw Object.assign(transportErrorOf(failure, this.server), {
              transportCode: failure.code ?? 'EH2',
            });
        }
      }
    }
    const response = await this.open(request);
    return { statusCode: response.statusCode ?? 0, body: response };
  }

  private urlOf(request: KubeRequest): URL {
    const url = new URL(this.server + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    }
    return url;
  }

  private async open(request: KubeRequest): Promise<IncomingMessage> {
    if (request.signal?.aborted) throw cancelled(request);
    const url = this.urlOf(request);
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
    if (request.signal) options.signal = request.signal;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = transport.request(url, options, resolve);
      req.on('error', (error: Error & { code?: string }) => {
        if (request.signal?.aborted) return reject(cancelled(request));
        reject(Object.assign(transportErrorOf(error, this.server), { transportCode: error.code }));
      });
      // kubectl gives up on a connection that is not established (TCP and TLS) within 30 s, whatever
      // --request-timeout says; a reused keep-alive socket is already established.
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(() => {
          req.destroy(
            Object.assign(new Error(`no connection within ${connectTimeoutMs / 1000} s`), {
              code: 'ETIMEDOUT',
            }),
          );
        }, connectTimeoutMs);
        socket.once(url.protocol === 'http:' ? 'connect' : 'secureConnect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      if (timeoutMs > 0) {
        req.setTimeout(timeoutMs, () => {
          req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
        });
      }
      req.end(body);
    });
  }
}

/** How long establishing a connection (TCP and TLS) may take. */
const connectTimeoutMs = 30_000;

function cancelled(request: KubeRequest): RequestCancelled {
  return new RequestCancelled(`${request.subject.verb} ${request.subject.resource}`);
}

/** Waits between retries; a cancelled request stops waiting at once. */
function sleep(ms: number, request: KubeRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const { signal } = request;
    if (signal?.aborted) return reject(cancelled(request));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(request));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readBody(response: Readable, request: KubeRequest): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch (error) {
    if (request.signal?.aborted) throw cancelled(request);
    throw error;
  }
  return Buffer.concat(chunks).toString('utf8');
}
