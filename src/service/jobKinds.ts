import type { Sql } from '../db/connect.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { selectBookCandidates } from '../sql/targets/selectBookCandidates.js';
import { bookFetchRate } from '../sync/bookFetchRate.js';
import { crawlListings } from '../sync/crawlListings.js';
import { DETAILS_CLOSING_WINDOW, detailsSeenSince, type JobName } from '../sync/jobCatalog.js';
import { maintainRunPartitions } from '../sync/maintainRunPartitions.js';
import { followTrades } from '../sync/pollTrades.js';
import { readCategoryCounts } from '../sync/readCategoryCounts.js';
import { readClosedFeed } from '../sync/readClosedFeed.js';
import { readHotListings } from '../sync/readHotListings.js';
import { fetchEventMarkets, refreshStaleEvents, refreshStaleMarkets } from '../sync/refreshDetails.js';
import { sweepOrderBooks } from '../sync/sweepOrderBooks.js';
import type { SyncContext } from '../sync/SyncContext.js';
import type { TradedBooks } from '../sync/TradedBooks.js';

// The work of each of the service's jobs; their names, priorities and the details job's window are
// in sync/jobCatalog.ts, which `status` and `plan` read without loading this work.

export interface JobSettings {
  orderBookMaxAgeSec: number;
  maxRejectedPercent: number;
  /** Months of history kept (PREDICTION_RETENTION_MONTHS); null or absent (the default) keeps everything. */
  retentionMonths?: number | null;
  /** Days of runs kept (PREDICTION_RUN_RETENTION_DAYS); null or absent keeps every run. */
  runRetentionDays?: number | null | undefined;
  /** The host's clock farther than this from the database's fails a run (JobOptions.clockToleranceMs). */
  clockToleranceMs?: number | undefined;
  /** A `maintenance` pool: the crawl then packs closed months (RunPartitionOptions.packer). Absent: no packing. */
  packer?: Sql | undefined;
  /**
   * The plan's rate (PREDICTION_RATE_LIMIT_RPM): the sweep lays its fetches out to its deadline at
   * what the other jobs leave of it, hot books several times a sweep. Absent: each book once a sweep.
   */
  rateLimitRpm?: number | undefined;
  /**
   * Busiest events (by volume24hr) of each provider a sweep reads alongside its books
   * (ORDERBOOK_HOT_EVENTS): the books whose listed prices moved since their last fetch are
   * fetched next. 0 or absent: none.
   */
  hotEvents?: number | undefined;
}

/** Jobs whose every run must receive records: a crawl that lists nothing read its upstream wrong. */
export const JOB_EXPECTS_RECORDS: Record<JobName, boolean> = { crawl: true, details: false, orderbooks: false, trades: false };

/**
 * Of these listed markets (busiest first), the open ones whose listed prices changed since their
 * book was last fetched, in that order, each with when the move was observed (ms).
 */
async function listedMovers(ctx: SyncContext, marketIds: readonly string[]): Promise<Map<string, number>> {
  if (marketIds.length === 0) return new Map();
  const rows = await withStatementDeadline(ctx.sql, 'selecting the listed movers', () =>
    selectBookCandidates(ctx.sql, ctx.providers, ctx.now(), marketIds),
  );
  const movedAtMs = new Map<string, number>();
  for (const r of rows) if (r.listedMovedAtMs !== null) movedAtMs.set(r.marketId, r.listedMovedAtMs);
  const movers = new Map<string, number>();
  for (const id of marketIds) {
    const at = movedAtMs.get(id);
    if (at !== undefined) movers.set(id, at);
  }
  return movers;
}

/**
 * What one execution of a job does; `deadline` is when the next tick of the same job is due.
 * `traded` is the process's channel from the trade feed's job to its sweep.
 */
export function jobWork(job: JobName, settings: JobSettings, traded?: TradedBooks): (ctx: SyncContext, deadline: Date) => Promise<void> {
  switch (job) {
    case 'crawl':
      return async (ctx) => {
        const missing = await crawlListings(ctx);
        await readClosedFeed(ctx);
        await readCategoryCounts(ctx);
        await fetchEventMarkets(ctx, missing);
        await maintainRunPartitions(ctx, {
          retentionMonths: settings.retentionMonths ?? null,
          packer: settings.packer,
          runRetentionDays: settings.runRetentionDays,
        });
      };
    case 'trades':
      return (ctx, deadline) => followTrades(ctx, deadline, traded);
    case 'details':
      return async (ctx) => {
        const seenSince = await withStatementDeadline(ctx.sql, 'reading the last complete crawl', () => detailsSeenSince(ctx.sql));
        if (seenSince) {
          await refreshStaleEvents(ctx, seenSince);
          await refreshStaleMarkets(ctx, seenSince, DETAILS_CLOSING_WINDOW);
        }
      };
    case 'orderbooks':
      return async (ctx, deadline) => {
        const rpm = settings.rateLimitRpm;
        const fetchesPerSec =
          rpm === undefined
            ? undefined
            : await withStatementDeadline(ctx.sql, 'reading the request rate', () => bookFetchRate(ctx.sql, 'orderbooks', rpm, ctx.now()));
        // Alongside the sweep, not before it: the sweep loses no time to them, and the books of the
        // markets they show moved are fetched as soon as they are stored.
        const events = settings.hotEvents ?? 0;
        const hot = events > 0 ? readHotListings(ctx, events) : undefined;
        const movers = hot?.then((listed) => listedMovers(ctx, listed.marketIds));
        await sweepOrderBooks(ctx, {
          limit: null,
          maxAgeSec: settings.orderBookMaxAgeSec,
          deadline,
          fetchesPerSec,
          movers,
          traded,
        });
        // Its failure, if any, is the run's.
        await movers;
      };
  }
}
