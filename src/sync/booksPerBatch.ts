// Apart from sweepOrderBooks.ts, which loads the client and the writers: `plan` replays the sweep's batches with these.

/**
 * Books fetched at once: a batch of at most this many, and the next one while it is written. Each
 * is held whole from its answer to its write, so this, not the upstream, bounds their memory;
 * the client's own concurrency still paces the sends.
 */
export const BOOKS_PER_FETCH = 16;

/** Books one fetch batch of the sweep holds, for a run's `batchSize`: `plan` replays the sweep's batches with it. */
export function booksPerBatch(batchSize: number): number {
  return Math.min(batchSize, BOOKS_PER_FETCH);
}
