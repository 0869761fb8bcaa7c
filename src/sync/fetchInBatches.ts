import { ApiNotFoundError } from '../api/client/index.js';
import { isAbortOf } from './isAbortOf.js';

export interface BatchOptions<T> {
  /** Items fetched (concurrently, paced by the client's queue) before their results are written together. */
  batchSize: number;
  /** Checked before each batch; calls it drops (ApiRequestAbortedError) end the work without error. */
  signal?: AbortSignal | undefined;
  onNotFound?: (item: T) => void;
  now: () => Date;
}

interface Fetched<T, R> {
  results: { item: T; result: R }[];
  failure: unknown;
  observedAt: Date;
}

/**
 * Fetches every item in batches and hands each batch's results to `write` (one transaction per
 * batch), so memory stays bounded and a crash loses at most one uncommitted batch. The next batch
 * is already being fetched while one is written, which keeps the request budget busy. A 404 drops
 * the item (gone upstream) and is counted; any other failure stops the work after what arrived of
 * that batch is written. An abort of `signal` does the same without the error: calls the client
 * dropped for it are not failures, and what had arrived is committed.
 */
export async function fetchInBatches<T, R>(
  items: readonly T[],
  fetch: (item: T) => Promise<R>,
  write: (results: { item: T; result: R }[], observedAt: Date) => Promise<void>,
  options: BatchOptions<T>,
): Promise<void> {
  const fetchBatch = async (from: number): Promise<Fetched<T, R>> => {
    const batch = items.slice(from, from + options.batchSize);
    const settled = await Promise.allSettled(batch.map(fetch));
    const fetched: Fetched<T, R> = { results: [], failure: undefined, observedAt: options.now() };
    settled.forEach((s, k) => {
      const item = batch[k]!;
      if (s.status === 'fulfilled') fetched.results.push({ item, result: s.value });
      else if (s.reason instanceof ApiNotFoundError) options.onNotFound?.(item);
      else if (!isAbortOf(s.reason, options.signal)) fetched.failure ??= s.reason;
    });
    return fetched;
  };
  const shouldStop = () => options.signal?.aborted === true;

  let next = items.length > 0 && !shouldStop() ? fetchBatch(0) : undefined;
  for (let from = 0; next; from += options.batchSize) {
    const { results, failure, observedAt } = await next;
    const more = failure === undefined && from + options.batchSize < items.length && !shouldStop();
    next = more ? fetchBatch(from + options.batchSize) : undefined;
    // What did arrive is still worth keeping; then a failure ends the work.
    if (results.length > 0) await write(results, observedAt);
    if (failure !== undefined) throw failure;
  }
}
