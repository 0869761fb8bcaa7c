import { ENDPOINTS } from '../api/endpoints/requests.js';
import { selectOrderBookTargets } from '../sql/selectSyncTargets.js';
import { writeOrderBooks, type FetchedOrderBooks } from '../store/writeOrderBooks.js';
import { fetchInBatches } from './fetchInBatches.js';
import type { SyncContext } from './SyncContext.js';

export interface SweepOptions {
  /** Books fetched at most; null: every open market. */
  limit: number | null;
  /** Books older than this come first, so each open market is visited at least once per period. Default 3600. */
  maxAgeSec?: number;
  /** Stop starting new batches at this instant (a scheduled sweep hands over to the next tick). */
  deadline?: Date;
}

/**
 * Levels gathered before a write. Books are small (tens of levels), and a transaction has a fixed
 * cost (lock, snapshot statement, COPY set-up, commit), so several fetch batches are written
 * together, each book with its own fetch's time. 50k levels hold the write lock for ~0.2 s.
 */
export const LEVELS_PER_WRITE = 50_000;

/**
 * What a rejected book counts toward LEVELS_PER_WRITE. It holds its payload until the write, cut
 * to LIMITS.rejectedPayloadChars of JSON (about 2 MB once parsed, as much as the largest valid
 * book): so at most ten wait for a write, however large the books the upstream sends.
 */
export const REJECTED_BOOK_LEVELS = LEVELS_PER_WRITE / 10;

/**
 * Books fetched at once: a batch of at most this many, and the next one while it is written. Each
 * is held whole from its answer to its write, so this, not the upstream, bounds their memory;
 * the client's own concurrency still paces the sends.
 */
export const BOOKS_PER_FETCH = 16;

/**
 * Fetches the order books of open markets in priority order (stale first, then volume, then
 * nearest close), writing them in transactions of about LEVELS_PER_WRITE levels (a crash loses at
 * most those, fetched again next time). Returns how many books were written. An abort writes
 * what had arrived and returns.
 */
export async function sweepOrderBooks(ctx: SyncContext, options: SweepOptions): Promise<number> {
  if (ctx.signal?.aborted) return 0;
  const targets = await selectOrderBookTargets(ctx.sql, ctx.providers, {
    limit: options.limit,
    maxAgeSec: options.maxAgeSec ?? 3600,
    now: ctx.now(),
  });
  let done = 0;
  let pending: FetchedOrderBooks[] = [];
  let pendingLevels = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const fetches = pending;
    pending = [];
    pendingLevels = 0;
    ctx.totals.add(await writeOrderBooks(ctx.sql, { runId: ctx.runId, endpoint: ENDPOINTS.getOrderBook, fetches, fence: ctx.fence }));
    done += fetches.reduce((n, f) => n + f.books.length, 0);
    ctx.progress(`order books ${done}/${targets.length}`);
  };
  try {
    await fetchInBatches(
      targets,
      (marketId) => ctx.client.getOrderBook(marketId),
      async (results, observedAt) => {
        const books = results.map((r) => r.result);
        pending.push({ books, observedAt });
        for (const b of books) pendingLevels += b.ok ? b.value.yes.length + b.value.no.length : REJECTED_BOOK_LEVELS;
        if (pendingLevels >= LEVELS_PER_WRITE) await flush();
      },
      {
        batchSize: Math.min(ctx.batchSize, BOOKS_PER_FETCH),
        signal: ctx.signal,
        now: ctx.now,
        onNotFound: () => void ctx.totals.notFound++,
        stopWhen: options.deadline ? () => Date.now() >= options.deadline!.getTime() : undefined,
      },
    );
  } finally {
    await flush();
  }
  return done;
}
