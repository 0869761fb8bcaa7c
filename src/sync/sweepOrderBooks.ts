import type { Checked, OrderBook } from '../domain/types.js';
import { selectOrderBookTargets } from '../sql/selectSyncTargets.js';
import { writeOrderBooks } from '../store/writeOrderBooks.js';
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
 * cost (lock, snapshot insert, COPY set-up), so several fetch batches are written together.
 */
const LEVELS_PER_WRITE = 10_000;

/**
 * Fetches the order books of open markets in priority order (stale first, then volume, then
 * nearest close), writing them in transactions of about LEVELS_PER_WRITE levels (a crash loses at
 * most those, fetched again next time). Returns how many books were written.
 */
export async function sweepOrderBooks(ctx: SyncContext, options: SweepOptions): Promise<number> {
  const targets = await selectOrderBookTargets(ctx.sql, ctx.providers, {
    limit: options.limit,
    maxAgeSec: options.maxAgeSec ?? 3600,
    now: ctx.now(),
  });
  let done = 0;
  let pending: Checked<OrderBook>[] = [];
  let pendingLevels = 0;
  let pendingAt: Date | undefined;
  const flush = async () => {
    if (pending.length === 0) return;
    const books = pending;
    pending = [];
    pendingLevels = 0;
    // Stamped with the group's last fetch: an earlier time would claim a book was known before it was.
    ctx.totals.add(await writeOrderBooks(ctx.sql, { runId: ctx.runId, books, observedAt: pendingAt!, fence: ctx.fence }));
    done += books.length;
    ctx.progress(`order books ${done}/${targets.length}`);
  };
  try {
    await fetchInBatches(
      targets,
      (marketId) => ctx.client.getOrderBook(marketId),
      async (results, observedAt) => {
        pendingAt = observedAt;
        for (const { result } of results) {
          pending.push(result);
          if (result.ok) pendingLevels += result.value.yes.length + result.value.no.length;
        }
        if (pendingLevels >= LEVELS_PER_WRITE) await flush();
      },
      {
        batchSize: ctx.batchSize,
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
