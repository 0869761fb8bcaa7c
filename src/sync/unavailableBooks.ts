import { ApiServerError } from '../api/client/index.js';

/**
 * Books answered before a majority of unavailable ones counts as an outage: below it, a few
 * unlucky markets at the start of a sweep would stop it.
 */
export const OUTAGE_MIN_BOOKS = 20;

/**
 * GET /orderbook/{marketId} answers 502 ("Failed to fetch orderbook data", OpenAPI 2026-07-02)
 * when its own source fails for that market. After the client's retries such a book is skipped,
 * counted and fetched again next sweep, instead of failing the sweep and every book after it;
 * while more than half of the books answered were unavailable, the order-book service is down and
 * the sweep stops as on any other upstream failure.
 */
export class UnavailableBooks {
  /** Books answered so far, with a book or with a 502 after every retry. */
  #answered = 0;
  #skipped = 0;

  get skipped(): number {
    return this.#skipped;
  }

  /** Counts a book that arrived. */
  readonly answered = (): void => {
    this.#answered += 1;
  };

  /** fetchInBatches' skipFailed: true for a book the upstream could not fetch, unless that looks like an outage. */
  readonly skip = (_marketId: string, error: unknown): boolean => {
    if (!(error instanceof ApiServerError) || error.status !== 502) return false;
    this.#answered += 1;
    if (this.#answered >= OUTAGE_MIN_BOOKS && 2 * (this.#skipped + 1) > this.#answered) return false;
    this.#skipped += 1;
    return true;
  };

  /** The error a sweep stops with when the upstream's 502s turned into an outage (`cause` the last one). */
  outage(cause: unknown): ApiServerError | null {
    if (!(cause instanceof ApiServerError) || cause.status !== 502 || this.#answered < OUTAGE_MIN_BOOKS) return null;
    return new ApiServerError(
      `${this.#skipped + 1} of ${this.#answered} order books answered 502 after every retry: the order-book service looks down, so the sweep stopped`,
      502,
      undefined,
      { cause },
    );
  }
}
