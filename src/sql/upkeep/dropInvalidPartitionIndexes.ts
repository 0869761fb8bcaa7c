import type postgres from 'postgres';

import { predictionSchema } from '../../schema/index.js';

/** An invalid copy an interrupted REINDEX CONCURRENTLY left, dropped. */
export interface DroppedIndexCopy {
  /** The copy, schema-qualified and quoted. */
  index: string;
  /**
   * For an old copy (…_ccold: interrupted after the new index took its place), the index that
   * replaced it, which is complete; null for a new copy (…_ccnew: the old index still serves).
   */
  replacedBy: string | null;
}

/**
 * Drops the copies an interrupted REINDEX CONCURRENTLY left on the prediction schema's partitions
 * (killed, cancelled or timed out mid-way): invalid indexes named …_ccnew or …_ccold, which cost
 * space and slow every write. A copy whose partition has an index build in progress is left alone:
 * it may belong to a rebuild still running elsewhere.
 */
export async function dropInvalidPartitionIndexes(sql: postgres.Sql): Promise<DroppedIndexCopy[]> {
  const rows = await sql<DroppedIndexCopy[]>`
    select x.indexrelid::regclass::text as index,
           case when ic.relname ~ '_ccold[0-9]*$'
             then to_regclass(format('%I.%I', n.nspname, substring(ic.relname from '^(.*)_ccold[0-9]*$')))::text end as "replacedBy"
    from pg_index x
    join pg_class ic on ic.oid = x.indexrelid
    join pg_namespace n on n.oid = ic.relnamespace
    join pg_class c on c.oid = x.indrelid and c.relispartition
    join pg_class root on root.oid = pg_partition_root(c.oid)
    join pg_namespace rn on rn.oid = root.relnamespace
    where not x.indisvalid and rn.nspname = ${predictionSchema.schemaName} and ic.relname ~ '_cc(new|old)[0-9]*$'
      and not exists (select from pg_inherits i where i.inhrelid = x.indexrelid)
      and not exists (select from pg_stat_progress_create_index p where p.relid = c.oid)`;
  for (const { index } of rows) await sql.unsafe(`drop index concurrently if exists ${index}`);
  return rows;
}
