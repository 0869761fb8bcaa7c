import type { Queryable } from '../core/queryable.js';
import type { RetentionCandidate } from './selectRetentionCandidates.js';

/** A monthly partition that retention dropped, as recorded in prediction.dropped_partitions. */
export interface DroppedPartition {
  tableName: string;
  partitionName: string;
  rangeStart: Date;
  rangeEnd: Date;
  rowCount: number;
}

/**
 * Drops one partition retention with `horizon` drops and records it with `rowCount`
 * (prediction.drop_month_partition, 0014); null when it is no longer one (another process dropped
 * it, or a state in its month is in force again). The drop waits for ACCESS EXCLUSIVE on the
 * partition's table, so it runs with a short lock_timeout of its own: a reader's long transaction
 * postpones retention (an error with code 55P03) instead of stalling every writer queued behind
 * the drop. Run it in the write transaction.
 */
export async function dropMonthPartition(
  sql: Queryable,
  partition: RetentionCandidate,
  options: { horizon: Date; retentionMonths: number; rowCount: number; lockTimeoutMs: number },
): Promise<DroppedPartition | null> {
  await sql`select set_config('lock_timeout', ${`${options.lockTimeoutMs}ms`}, true)`;
  const [row] = await sql<{ table_name: string; partition_name: string; range_start: Date; range_end: Date; row_count: string }[]>`
    select table_name, partition_name, range_start, range_end, row_count
    from prediction.drop_month_partition(${partition.partition}, ${options.horizon.toISOString()}::timestamptz,
                                         ${options.retentionMonths}, ${options.rowCount})`;
  if (!row) return null;
  return {
    tableName: row.table_name,
    partitionName: row.partition_name,
    rangeStart: row.range_start,
    rangeEnd: row.range_end,
    rowCount: Number(row.row_count),
  };
}
