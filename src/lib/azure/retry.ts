import { ArmGaveUp } from './errors.ts';

/** How hard to try one ARM request that is throttled (429) or failing (5xx) before giving up. */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The first backoff when ARM says nothing about when to come back; doubled per failure. */
  baseDelayMs: number;
  /** No single backoff is longer than this (a `Retry-After` is honoured whatever its length, within the deadline). */
  maxDelayMs: number;
  /** Total time for one request, all attempts and waits included; no wait is started that would end past it. */
  deadlineMs: number;
  /** How long to hold new requests when ARM says the read budget is spent without saying for how long. */
  budgetPauseMs: number;
}

/** Defaults sized for ARM: it asks for waits of seconds, and a run should not hang for minutes on one resource. */
export const defaultRetryOptions: RetryOptions = {
  maxAttempts: 10,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  deadlineMs: 60_000,
  budgetPauseMs: 1_000,
};

/** What one failed attempt said, as far as retrying goes. */
export interface AttemptFailure {
  /** HTTP status, or undefined for a network failure (connection reset, refused, timed out). */
  status: number | undefined;
  /** ARM's error code or the network error's code, for the message when giving up. */
  code: string | undefined;
  headers: ResponseHeaders;
}

/** A response's headers: one by lower-case name, and every name (to find the `x-ms-ratelimit-*` family). */
export interface ResponseHeaders {
  get(name: string): string | undefined;
  readonly names: readonly string[];
}

/** No headers (a network failure has none). */
export const noHeaders: ResponseHeaders = { get: () => undefined, names: [] };

/** Time and randomness, injected so tests run without waiting and the jitter can be pinned. */
export interface RetryClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** The real clock. */
export const systemClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const transientNetworkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'REQUEST_SEND_ERROR',
]);

/** True when trying again can help: 408, 429, 5xx other than 501/505, and a dropped connection. */
export function isRetryable(failure: AttemptFailure): boolean {
  const { status } = failure;
  if (status === undefined) return transientNetworkCodes.has(failure.code ?? '');
  if (status === 408 || status === 429) return true;
  return status >= 500 && status !== 501 && status !== 505;
}

/**
 * How long ARM asked us to wait, in milliseconds: `retry-after-ms` / `x-ms-retry-after-ms`, else
 * `Retry-After` as delta-seconds or as an HTTP-date (RFC 9110). Undefined when it said nothing usable.
 */
export function retryAfterMs(headers: ResponseHeaders, now: number): number | undefined {
  for (const name of ['retry-after-ms', 'x-ms-retry-after-ms']) {
    const value = headers.get(name)?.trim();
    if (value && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  }
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The lowest `x-ms-ratelimit-remaining-*` count on a response (ARM's per-subscription and per-tenant read
 * budgets), or undefined when none is there.
 */
export function rateLimitRemaining(headers: ResponseHeaders): number | undefined {
  let lowest: number | undefined;
  for (const name of headers.names) {
    if (!name.toLowerCase().startsWith('x-ms-ratelimit-remaining-')) continue;
    const value = Number(headers.get(name));
    if (Number.isFinite(value)) lowest = lowest === undefined ? value : Math.min(lowest, value);
  }
  return lowest;
}

/**
 * The backoff after `failures` failed attempts when ARM gave no `Retry-After`: exponential from
 * `baseDelayMs`, capped at `maxDelayMs`, with "equal jitter" (half fixed, half random) so that many
 * requests throttled together do not come back together.
 */
export function backoffMs(failures: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * State shared by every request to one ARM endpoint with one credential, because ARM's throttling is per
 * subscription and principal: when a response says the read budget is spent, new attempts hold until it
 * refills; once one request has given up on a failing ARM, the others try once more and no longer wait,
 * so a permanent outage costs one deadline, not one per resource.
 */
export class RetryGate {
  private holdUntil = 0;
  /** The first request that gave up, if any. */
  gaveUp: ArmGaveUp | undefined;

  /** Holds new attempts until `until` (ms since the epoch), unless already held longer. */
  hold(until: number): void {
    this.holdUntil = Math.max(this.holdUntil, until);
  }

  /**
   * Reads a response's `x-ms-ratelimit-remaining-*` counts: when one is spent, new attempts hold until
   * `Retry-After` (when given) or for `pauseMs`, rather than spend requests on certain 429s.
   */
  observe(headers: ResponseHeaders, now: number, pauseMs: number): void {
    const remaining = rateLimitRemaining(headers);
    if (remaining !== undefined && remaining <= 0) this.hold(now + (retryAfterMs(headers, now) ?? pauseMs));
  }

  /** How long a new attempt must wait now. */
  waitMs(now: number): number {
    return Math.max(0, this.holdUntil - now);
  }
}

/** What {@link withRetry} needs besides the attempt itself. */
export interface RetryContext {
  /** What is being read (the resource ID), for the error when giving up. */
  resource: string;
  options: RetryOptions;
  clock: RetryClock;
  gate: RetryGate;
  /** Turns an error thrown by `attempt` into what retrying needs, or undefined when it is not an HTTP/network failure. */
  classify: (error: unknown) => AttemptFailure | undefined;
  /** Runs one attempt when a request slot is free (the run's limiter); by default at once. */
  slot?: <R>(work: () => Promise<R>) => Promise<R>;
  /** Called before each wait, for tests and diagnostics. */
  onWait?: (ms: number, reason: string) => void;
}

/**
 * Runs `attempt` until it succeeds, fails for good (any error that is not retryable is rethrown as is),
 * or the retry budget runs out, then throws {@link ArmGaveUp} naming the resource. It exists because the
 * SDK's own retry gives up quietly after a count, without a total deadline, and without the shared pacing
 * that ARM's per-subscription throttling calls for.
 */
export async function withRetry<T>(attempt: () => Promise<T>, context: RetryContext): Promise<T> {
  const { options, clock, gate } = context;
  const started = clock.now();
  const deadline = started + options.deadlineMs;
  for (let attempts = 1; ; attempts++) {
    // The budget hold is waited out inside the slot: a request queued for a slot while ARM said the
    // budget was spent must not go out the moment it gets one.
    const held = async (): Promise<void> => {
      const wait = gate.waitMs(clock.now());
      if (wait <= 0) return;
      if (clock.now() + wait > deadline) throw giveUp(context, attempts - 1, started, undefined, 'deadline');
      context.onWait?.(wait, 'read budget spent');
      await clock.sleep(wait);
    };
    const slot = context.slot ?? ((work) => work());
    let failure: AttemptFailure | undefined;
    try {
      return await slot(async () => {
        await held();
        return attempt();
      });
    } catch (error) {
      failure = context.classify(error);
      if (!failure || !isRetryable(failure)) throw error;
    }
    gate.observe(failure.headers, clock.now(), options.budgetPauseMs);
    const asked = retryAfterMs(failure.headers, clock.now());
    if (gate.gaveUp && failure.status !== 429) throw giveUp(context, attempts, started, failure, 'outage');
    if (attempts >= options.maxAttempts) throw giveUp(context, attempts, started, failure, 'attempts');
    const wait = asked ?? backoffMs(attempts, options, clock.random);
    if (clock.now() + wait > deadline) throw giveUp(context, attempts, started, failure, 'deadline');
    context.onWait?.(
      wait,
      failure.status === 429 ? 'throttled' : `failed (${failure.status ?? failure.code})`,
    );
    await clock.sleep(wait);
  }
}

function giveUp(
  context: RetryContext,
  attempts: number,
  started: number,
  failure: AttemptFailure | undefined,
  why: 'deadline' | 'attempts' | 'outage',
): ArmGaveUp {
  const error = new ArmGaveUp({
    resource: context.resource,
    attempts,
    elapsedMs: context.clock.now() - started,
    status: failure?.status,
    code: failure?.code,
    why,
  });
  if (failure?.status !== 429) context.gate.gaveUp ??= error;
  return error;
}
