import type { Sql } from '../db/connect.js';
import type { Queryable } from '../sql/queryable.js';
import { lastCompleteCrawlStart } from '../sql/selectSyncTargets.js';
import { crawlListings } from '../sync/crawlListings.js';
import { readCategoryCounts } from '../sync/readCategoryCounts.js';
import { readClosedFeed } from '../sync/readClosedFeed.js';
import { maintainRunPartitions } from '../sync/maintainRunPartitions.js';
import type { ClosingWindow } from '../sync/marketDetailTargets.js';
import { followTrades } from '../sync/pollTrades.js';
import { fetchEventMarkets, refreshStaleEvents, refreshStaleMarkets } from '../sync/refreshDetails.js';
import { SYNC_JOB } from '../sync/runSyncCycle.js';
import type { SyncContext } from '../sync/SyncContext.js';
import { sweepOrderBooks } from '../sync/sweepOrderBooks.js';
import { bookFetchRate } from '../sync/bookFetchRate.js';
import { readHotListings } from '../sync/readHotListings.js';
import { selectBookCandidates } from '../sql/selectBookCandidates.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';

/**
 * The service's jobs, in the order `status` and `plan` list them: a new job is appended, since
 * scripts read that order. JOB_PRIORITY orders their requests.
 */
export const JOB_NAMES = ['crawl', 'details', 'orderbooks', 'trades'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** p-queue priority of each job's requests (higher goes first): the crawl is never starved by the others. */
// Trades come right after the listings: a fill the feed has dropped cannot be read again, a book can.
export const JOB_PRIORITY: Record<JobName, number> = { crawl: 30, trades: 25, details: 20, orderbooks: 10 };

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

/** The details job also refreshes open markets closing within 10 minutes or closed up to an hour ago, so a close is captured promptly. */
export const DETAILS_CLOSING_WINDOW: Readonly<ClosingWindow> = Object.freeze({ aheadSec: 600, behindSec: 3600 });

/**
 * What the details job counts as having left the listings: not seen since the start of the latest
 * complete crawl (the service's or a `sync`'s). Null before any crawl completed: nothing has left yet.
 */
export function detailsSeenSince(sql: Queryable): Promise<Date | null> {
  return lastCompleteCrawlStart(sql, ['crawl', SYNC_JOB]);
}

/** Of these listed markets (busiest first), the open ones whose listed prices changed since their book was last fetched, in that order. */
async function listedMovers(ctx: SyncContext, marketIds: readonly string[]): Promise<string[]> {
  if (marketIds.length === 0) return [];
  const rows = await withStatementDeadline(ctx.sql, 'selecting the listed movers', () =>
    selectBookCandidates(ctx.sql, ctx.providers, ctx.now(), marketIds),
  );
  const moved = new Set(rows.filter((r) => r.listedMoved).map((r) => r.marketId));
  return marketIds.filter((id) => moved.delete(id));
}

/** What one execution of a job does; `deadline` is when the next tick of the same job is due. */
export function jobWork(job: JobName, settings: JobSettings): (ctx: SyncContext, deadline: Date) => Promise<void> {
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
      return (ctx, deadline) => followTrades(ctx, deadline);
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
        await sweepOrderBooks(ctx, { limit: null, maxAgeSec: settings.orderBookMaxAgeSec, deadline, fetchesPerSec, movers });
        // Its failure, if any, is the run's.
        await movers;
      };
  }
}
