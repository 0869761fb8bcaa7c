/**
 * A sliding-window log, like the upstream's per-account limit: a request is accepted when fewer
 * than `requests` accepted requests arrived in the last `windowMs`. Rejected requests are not
 * recorded, so a client that backs off is not punished for the attempts it made while limited.
 */

export interface RateLimit {
  /** Accepted requests allowed per window. */
  requests: number;
  /** Window length, ms. */
  windowMs: number;
}

export interface LimitDecision {
  allowed: boolean;
  /** Accepted requests in the window, this one included when allowed. */
  current: number;
  remaining: number;
  /** Wall-clock ms when the oldest counted request leaves the window (now when the window is empty). */
  resetAtMs: number;
  /** When rejected: ms until a slot frees up. 0 when allowed. */
  retryAfterMs: number;
}

export function validateRateLimit(limit: RateLimit, name: string): RateLimit {
  if (!Number.isSafeInteger(limit.requests) || limit.requests < 1)
    throw new RangeError(`${name}.requests must be a positive integer, got ${limit.requests}`);
  if (!Number.isSafeInteger(limit.windowMs) || limit.windowMs < 1)
    throw new RangeError(`${name}.windowMs must be a positive integer, got ${limit.windowMs}`);
  return { requests: limit.requests, windowMs: limit.windowMs };
}

export class SlidingWindowLimiter {
  private hits: number[] = [];
  private head = 0;

  constructor(private limit: RateLimit) {}

  get config(): RateLimit {
    return this.limit;
  }

  /** New limits start from an empty window. */
  configure(limit: RateLimit): void {
    this.limit = limit;
    this.reset();
  }

  reset(): void {
    this.hits = [];
    this.head = 0;
  }

  tryAcquire(nowMs: number): LimitDecision {
    this.evict(nowMs);
    const count = this.hits.length - this.head;
    if (count >= this.limit.requests) {
      const resetAtMs = this.hits[this.head]! + this.limit.windowMs;
      return { allowed: false, current: count, remaining: 0, resetAtMs, retryAfterMs: resetAtMs - nowMs };
    }
    this.hits.push(nowMs);
    return {
      allowed: true,
      current: count + 1,
      remaining: this.limit.requests - count - 1,
      resetAtMs: this.hits[this.head]! + this.limit.windowMs,
      retryAfterMs: 0,
    };
  }

  private evict(nowMs: number): void {
    // A request at t counts during [t, t + windowMs).
    while (this.head < this.hits.length && this.hits[this.head]! <= nowMs - this.limit.windowMs) this.head++;
    if (this.head > 1024 && this.head * 2 > this.hits.length) {
      this.hits = this.hits.slice(this.head);
      this.head = 0;
    }
  }
}
