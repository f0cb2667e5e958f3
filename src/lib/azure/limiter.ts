/**
 * At most `limit` requests in flight at once, across every reader of a run. It exists apart from the loop
 * over resources so that a request waiting out a `Retry-After` gives its slot to another resource instead
 * of holding it idle: `--concurrency` counts requests on the wire, not resources being looked at.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  readonly limit: number;

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  /** Runs `work` when a slot is free, and frees the slot when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
