import type { Sql } from '../db/connect.js';
import { LOCK_NOT_AVAILABLE, QUERY_CANCELED, withSqlState } from '../errors/withSqlState.js';
import { dropInvalidPartitionIndexes } from '../sql/dropInvalidPartitionIndexes.js';
import { packIndex } from '../sql/packIndex.js';
import { selectUnpackedPartitions } from '../sql/selectUnpackedPartitions.js';

/**
 * How long after its month ends a partition counts as closed: an observation stamped just before
 * midnight may still be on its way to the database.
 */
export const CLOSED_AFTER_MS = 24 * 60 * 60_000;

/** A partition whose indexes were rebuilt densely. */
export interface PackedPartition {
  tableName: string;
  partition: string;
  rangeStart: Date;
  indexBytesBefore: number;
  indexBytesAfter: number;
}

export interface PartitionPacking {
  packed: PackedPartition[];
  /** Invalid indexes an interrupted packing had left, dropped first. */
  cleanedUp: string[];
  /** Why packing stopped early (a lock wait too long, or the run was stopped); it goes on next time. */
  postponed: string | null;
}

/**
 * Packs the indexes of closed months: those of a history table written month-long across markets
 * are about half full, and a month that has closed no longer grows (bench/storage.ts measures the
 * gain). At most `limit` partitions per call, oldest first, so that one call stays short; the rest
 * waits for the next. Needs a pool whose statements may run for minutes (the `maintenance` role).
 * Idempotent and safe to interrupt at any point: what an interruption leaves is cleaned up first.
 */
export async function packClosedPartitions(
  sql: Sql,
  options: { now: Date; limit: number; signal?: AbortSignal | undefined },
): Promise<PartitionPacking> {
  const { now, limit, signal } = options;
  const packed: PackedPartition[] = [];
  let cleanedUp: string[] = [];
  try {
    cleanedUp = await dropInvalidPartitionIndexes(sql);
    const closedBefore = new Date(now.getTime() - CLOSED_AFTER_MS);
    for (const partition of await selectUnpackedPartitions(sql, closedBefore, limit)) {
      let indexBytesAfter = 0;
      for (const index of partition.indexes) {
        if (signal?.aborted) return { packed, cleanedUp, postponed: 'stopped' };
        indexBytesAfter += await packIndex(sql, index, signal);
      }
      const { tableName, rangeStart, indexBytes } = partition;
      const indexBytesBefore = indexBytes.reduce((sum, bytes) => sum + bytes, 0);
      packed.push({ tableName, partition: partition.partition, rangeStart, indexBytesBefore, indexBytesAfter });
    }
    return { packed, cleanedUp, postponed: null };
  } catch (error) {
    const waited = withSqlState(error, LOCK_NOT_AVAILABLE) ?? withSqlState(error, QUERY_CANCELED);
    if (waited === undefined) throw error;
    return { packed, cleanedUp, postponed: waited.message };
  }
}
