import type { LimitDecision, RateLimit } from './slidingWindowLimiter.js';

/**
 * The gateway's window in front of the service (live-facts, addendum: keyless, about 5 requests
 * per 4 s): a fixed window that opens with the first request after the previous one ended and
 * accepts `requests` until it ends. Its reset is the window's end, the same for every answer in
 * it. Rejected requests are not counted.
 */
export class FixedWindowLimiter {
  #startMs = Number.NEGATIVE_INFINITY;
  #count = 0;

  constructor(readonly config: RateLimit) {}

  tryAcquire(nowMs: number): LimitDecision {
    if (nowMs >= this.#startMs + this.config.windowMs) {
      this.#startMs = nowMs;
      this.#count = 0;
    }
    const resetAtMs = this.#startMs + this.config.windowMs;
    if (this.#count >= this.config.requests) {
      return { allowed: false, current: this.#count, remaining: 0, resetAtMs, retryAfterMs: resetAtMs - nowMs };
    }
    this.#count += 1;
    return { allowed: true, current: this.#count, remaining: this.config.requests - this.#count, resetAtMs, retryAfterMs: 0 };
  }
}
