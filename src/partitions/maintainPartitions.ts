import type { Sql } from '../db/connect.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { ensureMonthPartitions } from '../sql/core/ensureMonthPartitions.js';
import type { DroppedPartition } from '../sql/upkeep/dropMonthPartition.js';
import { selectNewestFilledMonth } from '../sql/upkeep/selectNewestFilledMonth.js';
import { applyRetention } from './applyRetention.js';
import { retentionHorizon } from './retentionHorizon.js';

/** Months created ahead of the current one, so that a month never begins without its partitions. */
export const MONTHS_AHEAD = 2;

export interface PartitionMaintenance {
  /** Partitions created (this month and the next MONTHS_AHEAD, where missing). */
  created: number;
  /** Partitions retention dropped. */
  dropped: DroppedPartition[];
  /** Retention's horizon (never after the start of the newest month holding a row); null when retention is off. */
  horizon: Date | null;
  /** Why retention stopped short this time (a reader held a table too long); it goes on next time. */
  postponed: string | null;
}

/**
 * What the pipeline does to its partitioned tables after a crawl or a sync: creates the months
 * ahead, then, with a retention of `retentionMonths`, drops the months behind the horizon
 * (applyRetention). Creating the months is one fenced write transaction, and so is each drop, so
 * it is idempotent and a crash leaves each step whole or undone.
 */
export async function maintainPartitions(
  sql: Sql,
  options: {
    now: Date;
    retentionMonths: number | null;
    fence?: WriteFence | undefined;
    signal?: AbortSignal | undefined;
    /** Counts the rows of the partitions to drop (RetentionOptions.counter). */
    counter?: Sql | undefined;
  },
): Promise<PartitionMaintenance> {
  const { now, retentionMonths, fence, signal, counter } = options;
  const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD, 1));
  const created = await writeTransaction(sql, fence, (tx) => ensureMonthPartitions(tx, now, ahead));
  if (retentionMonths === null) return { created, dropped: [], horizon: null, postponed: null };
  // The month of the newest stored observation always stays, whatever the clock said: a clock
  // years ahead, or rows stamped by one, must not turn the current month into the past.
  const newestMonth = await selectNewestFilledMonth(sql);
  const byAge = retentionHorizon(now, retentionMonths);
  const horizon = newestMonth !== null && newestMonth < byAge ? newestMonth : byAge;
  const { dropped, postponed } = await applyRetention(sql, { horizon, retentionMonths, fence, signal, counter });
  return { created, dropped, horizon, postponed };
}
