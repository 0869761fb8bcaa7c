import type { Sql } from '../db/connect.js';
import { LOCK_NOT_AVAILABLE, withSqlState } from '../errors/withSqlState.js';
import type { WriteFence } from '../sql/acquireWriteLock.js';
import { dropPartitionsBefore, type DroppedPartition } from '../sql/dropPartitionsBefore.js';
import { ensureMonthPartitions } from '../sql/ensureMonthPartitions.js';
import { writeTransaction } from '../store/writeTransaction.js';
import { retentionHorizon } from './retentionHorizon.js';

/** Months created ahead of the current one, so that a month never begins without its partitions. */
export const MONTHS_AHEAD = 2;

export interface PartitionMaintenance {
  /** Partitions created (this month and the next MONTHS_AHEAD, where missing). */
  created: number;
  /** Partitions retention dropped. */
  dropped: DroppedPartition[];
  /** Retention's horizon; null when retention is off. */
  horizon: Date | null;
  /** Why retention could not drop this time (a reader held a table too long); it tries again next time. */
  postponed: string | null;
}

/**
 * What the pipeline does to its partitioned tables after a crawl or a sync: creates the months
 * ahead, then, with a retention of `retentionMonths`, drops the months behind the horizon. Each
 * step is one fenced write transaction, so it is idempotent and a crash leaves either all of a
 * step or none of it.
 */
export async function maintainPartitions(
  sql: Sql,
  options: { now: Date; retentionMonths: number | null; fence?: WriteFence | undefined },
): Promise<PartitionMaintenance> {
  const { now, retentionMonths, fence } = options;
  const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD, 1));
  const created = await writeTransaction(sql, fence, (tx) => ensureMonthPartitions(tx, now, ahead));
  if (retentionMonths === null) return { created, dropped: [], horizon: null, postponed: null };
  const horizon = retentionHorizon(now, retentionMonths);
  try {
    const dropped = await writeTransaction(sql, fence, (tx) => dropPartitionsBefore(tx, horizon, retentionMonths));
    return { created, dropped, horizon, postponed: null };
  } catch (error) {
    const lockError = withSqlState(error, LOCK_NOT_AVAILABLE);
    if (lockError === undefined) throw error;
    return { created, dropped: [], horizon, postponed: lockError.message };
  }
}
