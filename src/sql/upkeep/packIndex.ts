import type postgres from 'postgres';

import { PACKED_INDEX_OPTION } from './selectUnpackedPartitions.js';

/**
 * Rebuilds one index of a closed month's partition with REINDEX CONCURRENTLY, which fills its
 * leaves to the B-tree default of 90 % (a key written month-long across markets leaves them about
 * half full), then marks it packed (markPacked). Reads and writes of the partition go on
 * meanwhile. Not in a transaction (REINDEX CONCURRENTLY refuses one), so the marker comes only once
 * the new index is in place: an interrupted rebuild leaves an invalid copy, which
 * dropInvalidPartitionIndexes removes, and an index packed again.
 *
 * `session` is a connection of its own (db/onCancellableSession.ts, so that the rebuild can be
 * cancelled: the pool needs two connections). Returns the index's new size in bytes.
 */
export async function packIndex(session: postgres.ReservedSql, index: string): Promise<number> {
  await session.unsafe(`reindex index concurrently ${index}`).execute();
  return markPacked(session, index);
}

/** Marks `index` packed and returns its size in bytes. */
export async function markPacked(sql: postgres.Sql, index: string): Promise<number> {
  // Past its build the fill factor only guides page splits: 100 for an index that stays as it is.
  await sql.unsafe(`alter index ${index} set (${PACKED_INDEX_OPTION})`);
  const [row] = await sql<{ bytes: number }[]>`select pg_relation_size(${index}::regclass)::float8 as bytes`;
  return row!.bytes;
}
