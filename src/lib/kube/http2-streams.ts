import http2, { type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { RequestOptions } from 'node:https';
import type { Readable } from 'node:stream';

/** A streamed answer over HTTP/2: the status and the body, readable like an `IncomingMessage`. */
export interface Http2Answer {
  statusCode: number;
  body: Readable;
}

interface PooledSession {
  session: ClientHttp2Session;
  active: number;
}

/** Until the server says otherwise, as many streams per connection as HTTP/2 servers commonly allow. */
const assumedMaxStreams = 100;

/** Headers HTTP/2 forbids or sets itself; a request's HTTP/1.1 options may carry them. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'host', 'transfer-encoding', 'upgrade']);

/**
 * Long-lived streams (watches) multiplexed over a few HTTP/2 connections to one API server, instead of
 * one HTTP/1.1 connection each: `status -A --watch` on a real install watches hundreds of types, and
 * under the per-namespace RBAC fallback that many times the namespaces. A connection carries as many
 * streams as the server allows (its SETTINGS_MAX_CONCURRENT_STREAMS); the next stream opens another.
 * A connection that closes, is told to go away or fails leaves the pool, and its streams fail as a
 * dropped connection would, so the watches reopen. Idle connections do not keep the process alive.
 */
export class Http2Streams {
  private readonly origin: string;
  private readonly sessions: PooledSession[] = [];
  /** Whether any connection ever completed its HTTP/2 handshake: until one has, failures may mean no h2. */
  connectedOnce = false;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Connections open now (for tests and benchmarks). */
  get connections(): number {
    return this.sessions.length;
  }

  /**
   * Opens a GET stream. `options` are the request options the credentials were applied to (TLS material
   * on the options or their `https.Agent`, the authorization header). Rejects with the transport error
   * when the connection cannot be made, or when `timeoutMs` (when above 0) passes without an answer; after
   * the answer, the same limit ends a body that stays silent that long.
   */
  async get(
    pathAndQuery: string,
    options: RequestOptions,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Http2Answer> {
    const pooled = this.sessionFor(options);
    const headers: http2.OutgoingHttpHeaders = { ':method': 'GET', ':path': pathAndQuery };
    for (const [key, value] of Object.entries(options.headers ?? {})) {
      if (!connectionHeaders.has(key.toLowerCase()) && value !== undefined)
        headers[key.toLowerCase()] = value;
    }
    pooled.active++;
    pooled.session.ref();
    let stream: ClientHttp2Stream;
    try {
      stream = pooled.session.request(headers, signal ? { signal } : {});
    } catch (error) {
      this.release(pooled);
      throw error;
    }
    stream.once('close', () => this.release(pooled));
    // An error after the answer (connection cut, timeout, abort) reaches whoever reads the body; this
    // listener only keeps one that arrives while nobody is reading from crashing the process.
    stream.on('error', () => undefined);
    if (timeoutMs > 0) {
      stream.setTimeout(timeoutMs, () => {
        stream.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      });
    }
    const { session } = pooled;
    return new Promise<Http2Answer>((resolve, reject) => {
      // Whatever ends the stream or its connection before the answer settles the promise: a connection
      // that fails to open may not fail its pending streams, and nothing else would keep the wait alive.
      const fail = (error?: Error): void => {
        done();
        stream.destroy();
        reject(
          error ??
            Object.assign(new Error('the connection closed before the server answered'), {
              code: 'ECONNRESET',
            }),
        );
      };
      const closed = (): void => fail();
      const done = (): void => {
        stream.off('error', fail).off('close', closed);
        session.off('error', fail).off('close', closed);
      };
      stream.once('error', fail).once('close', closed);
      session.once('error', fail).once('close', closed);
      stream.once('response', (answer) => {
        done();
        resolve({ statusCode: Number(answer[':status'] ?? 0), body: stream });
      });
    });
  }

  /** Closes every connection (streams still open on them end). */
  close(): void {
    for (const { session } of this.sessions.splice(0)) session.close();
  }

  private sessionFor(options: RequestOptions): PooledSession {
    const roomy = this.sessions.find(
      ({ session, active }) =>
        !session.closed &&
        !session.destroyed &&
        active < (session.remoteSettings?.maxConcurrentStreams ?? assumedMaxStreams),
    );
    if (roomy) return roomy;
    const session = http2.connect(this.origin, tlsOf(options));
    // Each stream waiting for its answer listens on the session for a while: up to the stream limit.
    session.setMaxListeners(0);
    const pooled: PooledSession = { session, active: 0 };
    const leave = (): void => {
      const index = this.sessions.indexOf(pooled);
      if (index >= 0) this.sessions.splice(index, 1);
    };
    session.on('close', leave).on('goaway', leave);
    session.once('connect', () => {
      this.connectedOnce = true;
    });
    // Errors reach the streams opened on the session; the pool only forgets it.
    session.on('error', leave);
    session.unref();
    this.sessions.push(pooled);
    return pooled;
  }

  private release(pooled: PooledSession): void {
    pooled.active--;
    if (pooled.active === 0) pooled.session.unref();
  }
}

/**
 * The TLS material of request options in the shape `http2.connect` takes: what the credentials put on
 * the options themselves or on their `https.Agent`, and `h2` as the only protocol offered.
 */
function tlsOf(options: RequestOptions): http2.SecureClientSessionOptions {
  const agent = options.agent as { options?: Record<string, unknown> } | undefined | false;
  const agentOptions = (agent ? agent.options : undefined) ?? {};
  const pick = (key: string): unknown => (options as Record<string, unknown>)[key] ?? agentOptions[key];
  const tls: Record<string, unknown> = {};
  for (const key of ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized']) {
    const value = pick(key);
    if (value !== undefined) tls[key] = value;
  }
  return { ...tls, ALPNProtocols: ['h2'] } as http2.SecureClientSessionOptions;
}

/**
 * Whether a request's options can go over {@link Http2Streams}: TLS, with no agent other than a plain
 * `https.Agent` (a proxy's agent cannot carry HTTP/2), and not turned off with KUBECTL_ASO_HTTP1=1.
 */
export function http2Possible(url: URL, options: RequestOptions, env = process.env): boolean {
  if (env.KUBECTL_ASO_HTTP1 === '1' || url.protocol !== 'https:') return false;
  const agent = options.agent as { constructor?: { name?: string } } | undefined | false;
  return !agent || agent.constructor?.name === 'Agent';
}
