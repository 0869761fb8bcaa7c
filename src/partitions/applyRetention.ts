import type { Sql } from '../db/connect.js';
import { onCancellableSession } from '../db/onCancellableSession.js';
import { settingsOf } from '../db/openPool.js';
import { writeTransaction } from '../db/writeTransaction.js';
import { DEADLOCK_DETECTED, LOCK_NOT_AVAILABLE, QUERY_CANCELED, UNDEFINED_TABLE, withSqlState } from '../errors/withSqlState.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { countPartitionRows } from '../sql/upkeep/countPartitionRows.js';
import { dropMonthPartition, type DroppedPartition } from '../sql/upkeep/dropMonthPartition.js';
import { selectRetentionCandidates } from '../sql/upkeep/selectRetentionCandidates.js';

export interface RetentionOptions {
  /** Months ending at or before it go (retentionHorizon). */
  horizon: Date;
  /** The setting, recorded with each drop. */
  retentionMonths: number;
  fence?: WriteFence | undefined;
  /** Checked before each partition: retention stops between two drops, never inside one. */
  signal?: AbortSignal | undefined;
  /**
   * How long a drop waits for ACCESS EXCLUSIVE on its table before retention is postponed: every
   * writer and reader that comes after the drop waits behind it meanwhile. Default 2 s.
   */
  lockTimeoutMs?: number;
  /**
   * The pool that counts each partition's rows before its drop: a `maintenance` pool (its answer
   * deadline is hours), with two connections (onCancellableSession). Default: `sql` itself, where a
   * count may last only as long as the pool waits for an answer.
   */
  counter?: Sql | undefined;
  /**
   * Longest count of one partition's rows before retention is postponed. Default 15 minutes, or
   * less than the counting pool's answer deadline (SessionSettings.answerDeadlineMs).
   */
  countTimeoutMs?: number;
}

export interface RetentionResult {
  dropped: DroppedPartition[];
  /** Why retention stopped before the last partition (a lock, a deadlock, a count too long); null when done. */
  postponed: string | null;
}

const DEFAULT_LOCK_TIMEOUT_MS = 2_000;
const DEFAULT_COUNT_TIMEOUT_MS = 15 * 60_000;
/** How much earlier than the counting pool gives up on an answer the count itself stops. */
const COUNT_ANSWER_MARGIN_MS = 5_000;

/**
 * Drops the partitions behind the horizon one by one, oldest first, each recorded in
 * prediction.dropped_partitions. A partition's rows are counted first, on a connection of the
 * `counter` pool; only the drop itself takes the write lock, for milliseconds. Each drop commits on its own,
 * so an interrupted retention keeps what it dropped and the next run carries on. A drop that waits
 * too long for its lock, or deadlocks with a reader, postpones the rest to the next run.
 */
export async function applyRetention(sql: Sql, options: RetentionOptions): Promise<RetentionResult> {
  const { horizon, retentionMonths, fence, signal } = options;
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const counter = options.counter ?? sql;
  const countTimeoutMs =
    options.countTimeoutMs ?? Math.min(DEFAULT_COUNT_TIMEOUT_MS, settingsOf(counter).answerDeadlineMs - COUNT_ANSWER_MARGIN_MS);
  const dropped: DroppedPartition[] = [];
  for (const candidate of await selectRetentionCandidates(sql, horizon)) {
    if (signal?.aborted) break;
    try {
      const rowCount = await onCancellableSession(counter, signal, (session) =>
        countPartitionRows(session, candidate.partition, countTimeoutMs),
      );
      const one = await writeTransaction(sql, fence, (tx) =>
        dropMonthPartition(tx, candidate, { horizon, retentionMonths, rowCount, lockTimeoutMs }),
      );
      if (one !== null) dropped.push(one);
    } catch (error) {
      if (signal?.aborted) break;
      // Dropped by another process since the list was read: nothing left to do for it.
      if (withSqlState(error, UNDEFINED_TABLE) !== undefined) continue;
      const waited = [LOCK_NOT_AVAILABLE, DEADLOCK_DETECTED, QUERY_CANCELED].map((code) => withSqlState(error, code)).find(Boolean);
      if (waited === undefined) throw error;
      return { dropped, postponed: `${candidate.partition}: ${waited.message}` };
    }
  }
  return { dropped, postponed: null };
}
