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
 * Fetches the order books of open markets in priority order (stale first, then volume, then
 * nearest close), writing each batch in one transaction. Returns how many were asked for.
 */
export async function sweepOrderBooks(ctx: SyncContext, options: SweepOptions): Promise<number> {
  const targets = await selectOrderBookTargets(ctx.sql, ctx.providers, {
    limit: options.limit,
    maxAgeSec: options.maxAgeSec ?? 3600,
    now: ctx.now(),
  });
  let done = 0;
  await fetchInBatches(
    targets,
    (marketId) => ctx.client.getOrderBook(marketId),
    async (results, observedAt) => {
      ctx.totals.add(await writeOrderBooks(ctx.sql, { runId: ctx.runId, books: results.map((r) => r.result), observedAt, fence: ctx.fence }));
      done += results.length;
      ctx.progress(`order books ${done}/${targets.length}`);
    },
    {
      batchSize: ctx.batchSize,
      signal: ctx.signal,
      now: ctx.now,
      onNotFound: () => void ctx.totals.notFound++,
      stopWhen: options.deadline ? () => Date.now() >= options.deadline!.getTime() : undefined,
    },
  );
  return done;
}
