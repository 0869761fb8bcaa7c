import { performance } from 'node:perf_hooks';

/** One line an endpoint at most this often: an outage retries every queued request, each a line. */
export const RETRY_WARNING_EVERY_MS = 10_000;

/**
 * Decides which retries are logged. The first retry of an endpoint is, and then one every
 * RETRY_WARNING_EVERY_MS, carrying how many retries of that endpoint went unlogged before it: an
 * outage of the whole service then reads as a few lines an endpoint instead of hundreds, and
 * nothing is hidden (the retries are also counted in the client's stats).
 */
export class RetryWarnings {
  readonly #byEndpoint = new Map<string, { loggedAtMs: number; unlogged: number }>();

  // Monotonic: a wall-clock step must not silence the warnings or release a burst of them.
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The retries of `endpoint` left unlogged since its last line when this one is to be logged, else null. */
  take(endpoint: string): { unloggedBefore: number } | null {
    const nowMs = this.now();
    const seen = this.#byEndpoint.get(endpoint);
    if (seen !== undefined && nowMs - seen.loggedAtMs < RETRY_WARNING_EVERY_MS) {
      seen.unlogged += 1;
      return null;
    }
    this.#byEndpoint.set(endpoint, { loggedAtMs: nowMs, unlogged: 0 });
    return { unloggedBefore: seen?.unlogged ?? 0 };
  }
}
