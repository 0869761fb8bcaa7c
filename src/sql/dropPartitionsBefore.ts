import type { Queryable } from './queryable.js';

/** A monthly partition that retention dropped, as recorded in prediction.dropped_partitions. */
export interface DroppedPartition {
  tableName: string;
  partitionName: string;
  rangeStart: Date;
  rangeEnd: Date;
  rowCount: number;
}

/**
 * Drops the monthly partitions that end at or before `horizon` (state-history months only when
 * none of their states is still in force then) and records each (prediction.drop_partitions_before,
 * 0013). A drop waits for ACCESS EXCLUSIVE on the table, so it runs with a short lock_timeout of
 * its own: a reader's long transaction postpones retention (an error with code 55P03) instead of
 * stalling every writer queued behind the drop.
 */
export async function dropPartitionsBefore(
  sql: Queryable,
  horizon: Date,
  retentionMonths: number,
  lockTimeoutMs = 2_000,
): Promise<DroppedPartition[]> {
  await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`;
  const rows = await sql<{ table_name: string; partition_name: string; range_start: Date; range_end: Date; row_count: string }[]>`
    select table_name, partition_name, range_start, range_end, row_count
    from prediction.drop_partitions_before(${horizon.toISOString()}::timestamptz, ${retentionMonths})`;
  return rows.map((r) => ({
    tableName: r.table_name,
    partitionName: r.partition_name,
    rangeStart: r.range_start,
    rangeEnd: r.range_end,
    rowCount: Number(r.row_count),
  }));
}
