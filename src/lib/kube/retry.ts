/** How often an idempotent request is tried at most, as client-go does for throttling and server errors. */
export const maxAttempts = 4;

const retriedStatuses = new Set([429, 500, 502, 503, 504]);
const retriedCodes = new Set(['ECONNRESET', 'EPIPE']);

/**
 * The wait before trying an idempotent request again, or undefined when it must not be retried: only
 * throttling (429, honouring Retry-After up to 10 s), passing server errors and dropped connections are,
 * with exponential backoff from 200 ms. A refused connection or a timeout is not: retrying would only
 * delay the user's "unreachable".
 */
export function retryDelayMs(
  attempt: number,
  failure: { status?: number; code?: string; retryAfter?: string | undefined },
): number | undefined {
  if (attempt >= maxAttempts) return undefined;
  const retried =
    (failure.status !== undefined && retriedStatuses.has(failure.status)) ||
    (failure.code !== undefined && retriedCodes.has(failure.code));
  if (!retried) return undefined;
  const afterSeconds = Number(failure.retryAfter);
  if (failure.retryAfter !== undefined && Number.isFinite(afterSeconds) && afterSeconds >= 0) {
    return Math.min(afterSeconds, 10) * 1000;
  }
  return 200 * 2 ** (attempt - 1);
}
