import { getTableName } from 'drizzle-orm';

import type { Sql } from '../db/connect.js';
import { writeTransaction } from '../db/writeTransaction.js';
import { maintainPartitions } from '../partitions/maintainPartitions.js';
import { packClosedPartitions } from '../partitions/packClosedPartitions.js';
import { droppedPartitions } from '../schema/index.js';
import { pruneIngestRuns } from '../sql/upkeep/pruneIngestRuns.js';
import { emptyCounts } from '../store/writeCounts.js';
import type { SyncContext } from './SyncContext.js';

/** Partitions packed per run at most: one partition's rebuild is the longest step a run adds. */
const PARTITIONS_PACKED_PER_RUN = 1;

export interface RunPartitionOptions {
  /** Months of history kept (PREDICTION_RETENTION_MONTHS); null keeps everything. */
  retentionMonths: number | null;
  /**
   * A pool of the `maintenance` role, which packs the indexes of closed months
   * (packClosedPartitions) and counts the rows of the months retention drops. Without it nothing is
   * packed, and a count may last only as long as the writer pool waits for an answer.
   */
  packer?: Sql | undefined;
  /** Days of runs kept (PREDICTION_RUN_RETENTION_DAYS); null or absent keeps every run. */
  runRetentionDays?: number | null | undefined;
}

/**
 * Partition upkeep at the end of a crawl or sync: the months ahead, and retention's drops, which
 * count with the run's writes (rows of prediction.dropped_partitions); the runs older than
 * `runRetentionDays`; then the packing of one closed month's partition. A drop a reader's lock postponed is retried by the next run;
 * analytics.history_horizons shows what has gone.
 */
export async function maintainRunPartitions(ctx: SyncContext, options: RunPartitionOptions): Promise<void> {
  if (ctx.signal?.aborted) return;
  const result = await maintainPartitions(ctx.sql, {
    now: ctx.now(),
    retentionMonths: options.retentionMonths,
    fence: ctx.fence,
    signal: ctx.signal,
    counter: options.packer,
  });
  if (result.dropped.length > 0) {
    ctx.totals.add({ ...emptyCounts(), rowsByTable: { [getTableName(droppedPartitions)]: result.dropped.length } });
  }
  if (result.postponed !== null) notice(ctx, `retention postponed to the next run: ${result.postponed}`);
  const keepDays = options.runRetentionDays;
  if (keepDays !== null && keepDays !== undefined && !ctx.signal?.aborted) {
    const pruned = await writeTransaction(ctx.sql, ctx.fence, (tx) => pruneIngestRuns(tx, keepDays));
    if (pruned > 0) ctx.progress(`deleted ${pruned} runs older than ${keepDays} days`);
  }
  if (!options.packer || ctx.signal?.aborted) return;
  const packing = await packClosedPartitions(options.packer, { now: ctx.now(), limit: PARTITIONS_PACKED_PER_RUN, signal: ctx.signal });
  for (const p of packing.packed) {
    ctx.progress(`packed ${p.partition}: indexes ${mb(p.indexBytesBefore)} -> ${mb(p.indexBytesAfter)} MB`);
  }
  // A stop is no news: the run says it was aborted.
  if (packing.postponed !== null && !ctx.signal?.aborted) notice(ctx, `packing postponed to the next run: ${packing.postponed}`);
}

function notice(ctx: SyncContext, message: string): void {
  ctx.totals.notice(message);
  ctx.progress(message);
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
