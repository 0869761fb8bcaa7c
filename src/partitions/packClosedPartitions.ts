import type { Sql } from '../db/connect.js';
import { onCancellableSession } from '../db/onCancellableSession.js';
import { DEADLOCK_DETECTED, LOCK_NOT_AVAILABLE, QUERY_CANCELED, UNDEFINED_TABLE, withSqlState } from '../errors/withSqlState.js';
import { dropInvalidPartitionIndexes } from '../sql/upkeep/dropInvalidPartitionIndexes.js';
import { markPacked, packIndex } from '../sql/upkeep/packIndex.js';
import { selectOldSnapshotHolder } from '../sql/upkeep/selectOldSnapshotHolder.js';
import { selectUnpackedPartitions } from '../sql/upkeep/selectUnpackedPartitions.js';

/**
 * How long after its month ends a partition counts as closed: an observation stamped just before
 * midnight may still be on its way to the database.
 */
export const CLOSED_AFTER_MS = 24 * 60 * 60_000;

/**
 * A transaction open longer than this postpones packing before it starts: the rebuild would wait
 * for its snapshot to go (an export holds one for as long as it runs). Younger ones are waited for,
 * up to the maintenance role's lock timeout.
 */
export const OLD_SNAPSHOT_MS = 60_000;

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
  /** Invalid copies an interrupted packing had left, dropped first. */
  cleanedUp: string[];
  /** Why packing stopped early (an old transaction, a lock wait too long, the run stopping); it goes on next time. */
  postponed: string | null;
}

export interface PackOptions {
  now: Date;
  /** Partitions packed at most. */
  limit: number;
  /** Aborting it cancels the rebuild under way. */
  signal?: AbortSignal | undefined;
  /** Default OLD_SNAPSHOT_MS. */
  oldSnapshotMs?: number;
}

/**
 * Packs the indexes of closed months: those of a history table written month-long across markets
 * are about half full, and a month that has closed no longer grows (bench/storage.ts measures the
 * gain). At most `limit` partitions per call, oldest first, so that one call stays short; the rest
 * waits for the next. Needs a pool of the `maintenance` role with two connections (packIndex).
 * Idempotent and safe to interrupt at any point: what an interruption leaves is cleaned up first.
 */
export async function packClosedPartitions(sql: Sql, options: PackOptions): Promise<PartitionPacking> {
  const { now, limit, signal } = options;
  const packed: PackedPartition[] = [];
  const cleanedUp: string[] = [];
  try {
    for (const copy of await dropInvalidPartitionIndexes(sql)) {
      cleanedUp.push(copy.index);
      // Interrupted after the swap: the index in place is the rebuilt one.
      if (copy.replacedBy !== null) await markPacked(sql, copy.replacedBy);
    }
    const holder = await selectOldSnapshotHolder(sql, options.oldSnapshotMs ?? OLD_SNAPSHOT_MS);
    if (holder !== null) {
      const who = `${holder.applicationName || 'a session'} (pid ${holder.pid})`;
      return { packed, cleanedUp, postponed: `${who} has held a snapshot for ${Math.round(holder.ageSec)} s` };
    }
    const closedBefore = new Date(now.getTime() - CLOSED_AFTER_MS);
    for (const partition of await selectUnpackedPartitions(sql, closedBefore, limit)) {
      let indexBytesAfter = 0;
      for (const index of partition.indexes) {
        if (signal?.aborted) return { packed, cleanedUp, postponed: 'stopped' };
        indexBytesAfter += await onCancellableSession(sql, signal, (session) => packIndex(session, index));
      }
      const { tableName, rangeStart, indexBytes } = partition;
      const indexBytesBefore = indexBytes.reduce((sum, bytes) => sum + bytes, 0);
      packed.push({ tableName, partition: partition.partition, rangeStart, indexBytesBefore, indexBytesAfter });
    }
    return { packed, cleanedUp, postponed: null };
  } catch (error) {
    if (signal?.aborted) return { packed, cleanedUp, postponed: 'stopped' };
    // UNDEFINED_TABLE: retention dropped the partition between the listing and its rebuild.
    const waited = [LOCK_NOT_AVAILABLE, QUERY_CANCELED, DEADLOCK_DETECTED, UNDEFINED_TABLE]
      .map((code) => withSqlState(error, code))
      .find(Boolean);
    if (waited === undefined) throw error;
    return { packed, cleanedUp, postponed: waited.message };
  }
}
