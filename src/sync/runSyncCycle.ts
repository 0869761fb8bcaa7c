import { ApiNotFoundError, type PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import { crawlListings } from './crawlListings.js';
import { SYNC_JOB } from './jobCatalog.js';
import { maintainRunPartitions } from './maintainRunPartitions.js';
import { pollTrades } from './pollTrades.js';
import { readCategoryCounts } from './readCategoryCounts.js';
import { readClosedFeed } from './readClosedFeed.js';
import { fetchEventMarkets, refreshStaleEvents, refreshStaleMarkets } from './refreshDetails.js';
import { type JobOptions, type JobResult, runJob } from './runJob.js';
import { sweepOrderBooks } from './sweepOrderBooks.js';
import type { SyncContext } from './SyncContext.js';

export interface SyncOptions extends JobOptions {
  /** Order books fetched per cycle at most; null: every open market. */
  maxOrderBooks: number | null;
  /** Months of history kept (PREDICTION_RETENTION_MONTHS); null or absent keeps everything. */
  retentionMonths?: number | null;
  /** A `maintenance` pool: the cycle then packs closed months (RunPartitionOptions.packer). Absent: no packing. */
  packer?: Sql | undefined;
  /** Days of runs kept (PREDICTION_RUN_RETENTION_DAYS); null or absent keeps every run. */
  runRetentionDays?: number | null;
}

export type SyncResult = JobResult;

/**
 * One complete cycle: poll the trade feed, crawl the listings, read the closed-events feed and the
 * service's own counts, refresh what neither feed explained, sweep order books, look after the
 * partitions. Every page or batch commits on its own, so a cycle killed at any point leaves a
 * consistent database and the next one completes the work.
 */
export function runSyncCycle(sql: Sql, client: PredictionClient, options: SyncOptions): Promise<SyncResult> {
  return runJob(sql, client, SYNC_JOB, options, syncCycle(options));
}

/** The work of one cycle, for runJob or runLeasedJob. */
export function syncCycle(
  options: Pick<SyncOptions, 'maxOrderBooks' | 'retentionMonths' | 'packer' | 'runRetentionDays'>,
): (ctx: SyncContext) => Promise<void> {
  return async (ctx) => {
    const cycleStart = ctx.now();
    // First: the feed holds minutes of fills, and a long crawl must not let them scroll away.
    await pollTrades(ctx).catch((error: unknown) => {
      // A feed the service no longer offers costs the cycle its trades, not its listings and books.
      if (!(error instanceof ApiNotFoundError)) throw error;
      ctx.totals.notice('the trade feed (GET /trades) answered 404: no trades were read');
    });
    const missingMarkets = await crawlListings(ctx);
    await readClosedFeed(ctx);
    await readCategoryCounts(ctx);
    await fetchEventMarkets(ctx, missingMarkets);
    await refreshStaleEvents(ctx, cycleStart);
    await refreshStaleMarkets(ctx, cycleStart);
    await sweepOrderBooks(ctx, { limit: options.maxOrderBooks });
    await maintainRunPartitions(ctx, {
      retentionMonths: options.retentionMonths ?? null,
      packer: options.packer,
      runRetentionDays: options.runRetentionDays,
    });
  };
}
