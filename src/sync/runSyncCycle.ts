import type { PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import { crawlListings } from './crawlListings.js';
import { readCategoryCounts } from './readCategoryCounts.js';
import { readClosedFeed } from './readClosedFeed.js';
import { fetchEventMarkets, refreshStaleEvents, refreshStaleMarkets } from './refreshDetails.js';
import { runJob, type JobOptions, type JobResult } from './runJob.js';
import { maintainRunPartitions } from './maintainRunPartitions.js';
import { sweepOrderBooks } from './sweepOrderBooks.js';
import type { SyncContext } from './SyncContext.js';

export interface SyncOptions extends JobOptions {
  /** Order books fetched per cycle at most; null: every open market. */
  maxOrderBooks: number | null;
  /** Months of history kept (PREDICTION_RETENTION_MONTHS); null or absent keeps everything. */
  retentionMonths?: number | null;
  /** A `maintenance` pool: the cycle then packs closed months (RunPartitionOptions.packer). Absent: no packing. */
  packer?: Sql | undefined;
}

export type SyncResult = JobResult;

export const SYNC_JOB = 'sync';

/**
 * One complete cycle: crawl the listings, read the closed-events feed and the service's own
 * counts, refresh what neither feed explained, sweep order books, look after the
 * partitions. Every page or batch commits on its own, so a cycle killed at any point leaves a
 * consistent database and the next one completes the work.
 */
export function runSyncCycle(sql: Sql, client: PredictionClient, options: SyncOptions): Promise<SyncResult> {
  return runJob(sql, client, SYNC_JOB, options, syncCycle(options));
}

/** The work of one cycle, for runJob or runLeasedJob. */
export function syncCycle(options: Pick<SyncOptions, 'maxOrderBooks' | 'retentionMonths' | 'packer'>): (ctx: SyncContext) => Promise<void> {
  return async (ctx) => {
    const cycleStart = ctx.now();
    const missingMarkets = await crawlListings(ctx);
    await readClosedFeed(ctx);
    await readCategoryCounts(ctx);
    await fetchEventMarkets(ctx, missingMarkets);
    await refreshStaleEvents(ctx, cycleStart);
    await refreshStaleMarkets(ctx, cycleStart);
    await sweepOrderBooks(ctx, { limit: options.maxOrderBooks });
    await maintainRunPartitions(ctx, { retentionMonths: options.retentionMonths ?? null, packer: options.packer });
  };
}
