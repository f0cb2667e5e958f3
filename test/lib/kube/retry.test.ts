import { describe, expect, it } from 'vitest';
import { maxAttempts, retryDelayMs } from '../../../src/lib/kube/retry.ts';

describe('retryDelayMs', () => {
  it('backs off exponentially on throttling and passing server errors', () => {
    expect(retryDelayMs(1, { status: 503 })).toBe(200);
    expect(retryDelayMs(2, { status: 500 })).toBe(400);
    expect(retryDelayMs(3, { status: 429 })).toBe(800);
  });
  it('honours Retry-After, capped at ten seconds', () => {
    expect(retryDelayMs(1, { status: 429, retryAfter: '2' })).toBe(2000);
    expect(retryDelayMs(1, { status: 429, retryAfter: '3600' })).toBe(10_000);
  });
  it('retries a dropped connection but not a refused one or a timeout', () => {
    expect(retryDelayMs(1, { code: 'ECONNRESET' })).toBe(200);
    expect(retryDelayMs(1, { code: 'ECONNREFUSED' })).toBeUndefined();
    expect(retryDelayMs(1, { code: 'ETIMEDOUT' })).toBeUndefined();
  });
  it('never retries client errors, and stops after the last attempt', () => {
    expect(retryDelayMs(1, { status: 403 })).toBeUndefined();
    expect(retryDelayMs(1, { status: 404 })).toBeUndefined();
    expect(retryDelayMs(maxAttempts, { status: 503 })).toBeUndefined();
  });
});
