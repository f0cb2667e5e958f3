import { ApiError, ClusterUnreachable } from '../kube/errors.ts';

/** How a migration waits out a busy or restarting API server. */
export interface Backoff {
  /** The first wait, doubled on each attempt up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** How long one request may keep failing before the object (or the page) is given up. */
  giveUpAfterMs: number;
  /**
   * False for a run's first request: a cluster that cannot be reached before anything was done is named at
   * once (exit 4), as `status` does, rather than waited for in silence as a restart mid-run is.
   */
  retryUnreachable?: boolean;
}

/**
 * Long enough to ride out an API server restart (tens of seconds) without hammering it; the kube client's
 * own retries (four attempts within two seconds) are too short for that.
 */
export const defaultBackoff: Backoff = { initialDelayMs: 250, maxDelayMs: 5_000, giveUpAfterMs: 120_000 };

/**
 * Failures worth waiting out: throttling (429), server errors (500 other than a failed conversion, 502,
 * 503, 504) and a lost or refused connection (an API server restarting refuses connections for a while).
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ClusterUnreachable) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.status === 500) return !/conver/i.test(error.message);
  return [429, 502, 503, 504].includes(error.status);
}

/** Runs `attempt` until it succeeds or fails for good; transient failures are retried with backoff. */
export async function withBackoff<T>(
  attempt: () => Promise<T>,
  backoff: Backoff = defaultBackoff,
): Promise<T> {
  const started = Date.now();
  let delay = backoff.initialDelayMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransient(error) || Date.now() - started + delay > backoff.giveUpAfterMs) throw error;
      if (error instanceof ClusterUnreachable && backoff.retryUnreachable === false) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, backoff.maxDelayMs);
    }
  }
}
