import type postgres from 'postgres';
import { predictionSchema } from '../schema/index.js';

/**
 * Drops the invalid indexes of the prediction schema's partitions: the copies an interrupted
 * REINDEX CONCURRENTLY leaves (killed, cancelled or timed out mid-way), which cost space and slow
 * every write. One attached to a parent's index is left alone (only a schema change makes those).
 * DROP INDEX CONCURRENTLY waits for a rebuild still running on the same partition, then finds
 * nothing left to drop. Returns the indexes dropped.
 */
export async function dropInvalidPartitionIndexes(sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<{ index: string }[]>`
    select x.indexrelid::regclass::text as index
    from pg_index x
    join pg_class c on c.oid = x.indrelid and c.relispartition
    join pg_class root on root.oid = pg_partition_root(c.oid)
    join pg_namespace rn on rn.oid = root.relnamespace
    where not x.indisvalid and rn.nspname = ${predictionSchema.schemaName}
      and not exists (select from pg_inherits i where i.inhrelid = x.indexrelid)`;
  for (const { index } of rows) await sql.unsafe(`drop index concurrently if exists ${index}`);
  return rows.map((r) => r.index);
}
