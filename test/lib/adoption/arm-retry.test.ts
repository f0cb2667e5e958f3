import { describe, expect, it } from 'vitest';
import { ArmGaveUp } from '../../../src/lib/azure/errors.ts';
import {
  type AttemptFailure,
  backoffMs,
  defaultRetryOptions,
  type ResponseHeaders,
  RetryGate,
  type RetryOptions,
  retryAfterMs,
  withRetry,
} from '../../../src/lib/azure/retry.ts';

const id = '/subscriptions/s/resourceGroups/rg';

function headers(values: Record<string, string>): ResponseHeaders {
  return { get: (name) => values[name], names: Object.keys(values) };
}

/** An HTTP failure as the classifier sees it. */
class Failed extends Error {
  readonly failure: AttemptFailure;
  constructor(failure: AttemptFailure) {
    super(`status ${failure.status}`);
    this.failure = failure;
  }
}

/** A clock that moves only when the code under test sleeps, recording each sleep. */
function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
      random: () => 0.5,
    },
  };
}

/** Runs withRetry over a scripted list of answers: a failure to throw, or 'ok'. */
async function scripted(
  answers: Array<AttemptFailure | 'ok'>,
  options: Partial<RetryOptions> = {},
  gate = new RetryGate(),
) {
  const { clock, sleeps } = fakeClock();
  let calls = 0;
  const result = withRetry(
    async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)];
      if (answer === 'ok' || answer === undefined) return 'body';
      throw new Failed(answer);
    },
    {
      resource: id,
      options: { ...defaultRetryOptions, ...options },
      clock,
      gate,
      classify: (error) => (error instanceof Failed ? error.failure : undefined),
    },
  );
  return { result, sleeps, calls: () => calls };
}

const throttled = (values: Record<string, string>): AttemptFailure => ({
  status: 429,
  code: 'TooManyRequests',
  headers: headers(values),
});
const failed = (status: number): AttemptFailure => ({
  status,
  code: 'InternalServerError',
  headers: headers({}),
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds, an HTTP-date and retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(now + 3000).toUTCString() }), now)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(now - 3000).toUTCString() }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'x-ms-retry-after-ms': '40' }), now)).toBe(40);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('waits exactly what a 429 asks, in either form, then succeeds', async () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const run = await scripted([
      throttled({ 'retry-after': '3' }),
      throttled({ 'retry-after': new Date(start + 3000 + 5000).toUTCString() }),
      'ok',
    ]);
    await expect(run.result).resolves.toBe('body');
    expect(run.sleeps).toEqual([3000, 5000]);
  });
});

describe('backoff without Retry-After', () => {
  it('doubles from the base, is capped, and jitters within the upper half', () => {
    const options = { ...defaultRetryOptions, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(1, options, () => 0)).toBe(50);
    expect(backoffMs(1, options, () => 0.999)).toBeCloseTo(100, 0);
    expect(backoffMs(3, options, () => 0)).toBe(200);
    expect(backoffMs(10, options, () => 1)).toBe(1000);
  });

  it('rides out a 5xx storm and answers', async () => {
    const run = await scripted([failed(503), failed(500), failed(502), 'ok'], { baseDelayMs: 100 });
    await expect(run.result).resolves.toBe('body');
    expect(run.sleeps).toEqual([75, 150, 300]);
  });
});

describe('giving up', () => {
  it('throws ArmGaveUp naming the resource when the deadline would pass', async () => {
    const run = await scripted([failed(500)], { baseDelayMs: 1000, maxDelayMs: 4000, deadlineMs: 5000 });
    const error = await run.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArmGaveUp);
    expect((error as ArmGaveUp).details).toMatchObject({ resource: id, status: 500, why: 'deadline' });
    expect((error as ArmGaveUp).message).toContain(`gave up reading ${id}`);
    expect((error as ArmGaveUp).exit).toBe('partial');
    // 750 + 1500 waited; the next (3000) would end past 5 s.
    expect(run.sleeps).toEqual([750, 1500]);
  });

  it('does not wait for a Retry-After that ends past the deadline', async () => {
    const run = await scripted([throttled({ 'retry-after': '120' })], { deadlineMs: 60_000 });
    const error = (await run.result.catch((e: unknown) => e)) as ArmGaveUp;
    expect(error.details).toMatchObject({ status: 429, attempts: 1, why: 'deadline' });
    expect(run.sleeps).toEqual([]);
  });

  it('stops after maxAttempts', async () => {
    const run = await scripted([failed(500)], { maxAttempts: 3, baseDelayMs: 1 });
    const error = (await run.result.catch((e: unknown) => e)) as ArmGaveUp;
    expect(error.details).toMatchObject({ attempts: 3, why: 'attempts' });
    expect(run.calls()).toBe(3);
  });

  it('rethrows what retrying cannot help (404, 403, 501) at once', async () => {
    for (const status of [404, 403, 501]) {
      const run = await scripted([failed(status)]);
      await expect(run.result).rejects.toBeInstanceOf(Failed);
      expect(run.calls()).toBe(1);
    }
  });

  it('once one request gave up on a failing ARM, another tries once more and does not wait', async () => {
    const gate = new RetryGate();
    const first = await scripted([failed(500)], { deadlineMs: 2000, baseDelayMs: 500 }, gate);
    await expect(first.result).rejects.toBeInstanceOf(ArmGaveUp);
    const second = await scripted([failed(500)], {}, gate);
    const error = (await second.result.catch((e: unknown) => e)) as ArmGaveUp;
    expect(error.details.why).toBe('outage');
    expect(second.calls()).toBe(1);
    expect(second.sleeps).toEqual([]);
    const healthy = await scripted(['ok'], {}, gate);
    await expect(healthy.result).resolves.toBe('body');
  });
});

describe('x-ms-ratelimit-remaining-*', () => {
  it('holds new attempts when a response says the read budget is spent', async () => {
    const gate = new RetryGate();
    const now = Date.parse('2026-01-01T00:00:00Z');
    gate.observe(headers({ 'x-ms-ratelimit-remaining-subscription-reads': '11999' }), now, 1000);
    expect(gate.waitMs(now)).toBe(0);
    gate.observe(
      headers({
        'x-ms-ratelimit-remaining-subscription-reads': '0',
        'x-ms-ratelimit-remaining-tenant-reads': '400',
      }),
      now,
      1000,
    );
    expect(gate.waitMs(now)).toBe(1000);
    gate.observe(
      headers({ 'x-ms-ratelimit-remaining-subscription-reads': '0', 'retry-after': '4' }),
      now,
      1000,
    );
    expect(gate.waitMs(now + 1000)).toBe(3000);
    const run = await scripted(['ok'], {}, gate);
    await expect(run.result).resolves.toBe('body');
    expect(run.sleeps).toEqual([4000]);
  });
});
