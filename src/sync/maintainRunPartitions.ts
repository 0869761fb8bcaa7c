import { getTableName } from 'drizzle-orm';
import { maintainPartitions } from '../partitions/maintainPartitions.js';
import { droppedPartitions } from '../schema/index.js';
import { emptyCounts } from '../store/writeCounts.js';
import type { SyncContext } from './SyncContext.js';

/**
 * Partition upkeep at the end of a crawl or sync: the months ahead, and retention's drops, which
 * count with the run's writes (rows of prediction.dropped_partitions). A drop a reader's lock
 * postponed is retried by the next run; analytics.history_horizons shows what has gone.
 */
export async function maintainRunPartitions(ctx: SyncContext, retentionMonths: number | null): Promise<void> {
  if (ctx.signal?.aborted) return;
  const result = await maintainPartitions(ctx.sql, { now: ctx.now(), retentionMonths, fence: ctx.fence });
  if (result.dropped.length > 0) {
    ctx.totals.add({ ...emptyCounts(), rowsByTable: { [getTableName(droppedPartitions)]: result.dropped.length } });
  }
  if (result.postponed !== null) ctx.progress(`retention postponed: ${result.postponed}`);
}
