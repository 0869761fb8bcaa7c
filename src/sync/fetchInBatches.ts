import { ApiNotFoundError } from '../api/client/index.js';
import { isAbortOf } from './isAbortOf.js';

/**
 * Answers that arrived within this span of the first of their group are written together, stamped
 * with the last one's arrival. A batch's answers may come over a minute at a low rate limit, or
 * between the pages of another job sharing the queue: stamped all with the batch's end, an early
 * answer would be dated after observations that came later, and override them.
 */
export const ARRIVAL_GROUP_MS = 1_000;

export interface BatchOptions<T> {
  /** Items fetched (concurrently, paced by the client's queue) before their results are written. */
  batchSize: number;
  /** Checked before each batch; calls it drops (ApiRequestAbortedError) end the work without error. */
  signal?: AbortSignal | undefined;
  onNotFound?: (item: T) => void;
  /**
   * Asked about any other failure of one item's fetch: true if it concerns that item alone, which is
   * then skipped like a 404; false (the default) stops the work like any failure.
   */
  skipFailed?: (item: T, error: unknown) => boolean;
  now: () => Date;
}

interface Arrived<T, R> {
  item: T;
  result: R;
  at: Date;
  /** The item's place in the list fetched. */
  position: number;
}

interface Fetched<T, R> {
  /** In the order they arrived. */
  results: Arrived<T, R>[];
  failure: unknown;
}

/**
 * Fetches every item in batches and hands the results to `write`, each group of answers that
 * arrived within ARRIVAL_GROUP_MS stamped with its last arrival (one transaction per group), so
 * memory stays bounded, a crash loses at most one uncommitted batch, and no answer is dated more
 * than ARRIVAL_GROUP_MS after it arrived. The next batch is already being fetched while one is
 * written, which keeps the request budget busy. A 404 drops the item (gone upstream) and is
 * counted; any other failure stops the work after what arrived of that batch is written. An abort
 * of `signal` does the same without the error: calls the client dropped for it are not failures,
 * and what had arrived is committed.
 */
export async function fetchInBatches<T, R>(
  items: readonly T[],
  fetch: (item: T) => Promise<R>,
  write: (results: { item: T; result: R }[], observedAt: Date) => Promise<void>,
  options: BatchOptions<T>,
): Promise<void> {
  const fetchBatch = async (from: number): Promise<Fetched<T, R>> => {
    const batch = items.slice(from, from + options.batchSize);
    const fetched: Fetched<T, R> = { results: [], failure: undefined };
    await Promise.all(
      batch.map(async (item, k) => {
        try {
          const result = await fetch(item);
          fetched.results.push({ item, result, at: options.now(), position: from + k });
        } catch (error) {
          if (error instanceof ApiNotFoundError) options.onNotFound?.(item);
          else if (!isAbortOf(error, options.signal) && options.skipFailed?.(item, error) !== true) fetched.failure ??= error;
        }
      }),
    );
    return fetched;
  };
  const shouldStop = () => options.signal?.aborted === true;

  let next = items.length > 0 && !shouldStop() ? fetchBatch(0) : undefined;
  for (let from = 0; next; from += options.batchSize) {
    const { results, failure } = await next;
    const more = failure === undefined && from + options.batchSize < items.length && !shouldStop();
    next = more ? fetchBatch(from + options.batchSize) : undefined;
    // What did arrive is still worth keeping; then a failure ends the work.
    for (const group of byArrival(results)) await write(group.results, group.observedAt);
    if (failure !== undefined) throw failure;
  }
}

/**
 * Answers (in arrival order) in groups spanning at most ARRIVAL_GROUP_MS, each stamped with its
 * last arrival. Within a group they keep the order of the items fetched, not of their arrival: the
 * same answers write the same rows, their ids too, whatever order the network brought them in. Pure.
 */
export function byArrival<T, R>(arrived: readonly Arrived<T, R>[]): { results: { item: T; result: R }[]; observedAt: Date }[] {
  const groups: { arrived: Arrived<T, R>[]; observedAt: Date; startMs: number }[] = [];
  for (const answer of arrived) {
    const last = groups.at(-1);
    if (last && answer.at.getTime() - last.startMs <= ARRIVAL_GROUP_MS) {
      last.arrived.push(answer);
      if (answer.at > last.observedAt) last.observedAt = answer.at;
    } else groups.push({ arrived: [answer], observedAt: answer.at, startMs: answer.at.getTime() });
  }
  return groups.map(({ arrived: group, observedAt }) => ({
    results: group.sort((a, b) => a.position - b.position).map(({ item, result }) => ({ item, result })),
    observedAt,
  }));
}
