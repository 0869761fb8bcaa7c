import { predictionSchema } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';

/** The storage parameter that marks a partition's index as packed (packIndex). */
export const PACKED_INDEX_OPTION = 'fillfactor=100';

/** A monthly partition with at least one index not packed yet. */
export interface UnpackedPartition {
  /** The partitioned table, e.g. orderbook_snapshots. */
  tableName: string;
  /** The partition, schema-qualified and quoted as SQL needs it. */
  partition: string;
  rangeStart: Date;
  rangeEnd: Date;
  /** Its valid indexes, schema-qualified and quoted, packed ones included (packing is per partition). */
  indexes: string[];
  /** Their sizes on disk (pg_relation_size), in the order of `indexes`. */
  indexBytes: number[];
}

/**
 * The partitions of the prediction schema's partitioned tables whose range ends at or before
 * `closedBefore` and that have an index not marked packed, oldest month first, at most `limit`;
 * not those with an index build in progress (another process packing them). Read from the catalog,
 * ranges by prediction.month_partitions (0014).
 */
export function selectUnpackedPartitions(sql: Queryable, closedBefore: Date, limit: number): Promise<UnpackedPartition[]> {
  return sql<UnpackedPartition[]>`
    select parent.relname as "tableName", child.oid::regclass::text as partition,
           b.range_start as "rangeStart", b.range_end as "rangeEnd",
           array_agg(x.indexrelid::regclass::text order by x.indexrelid) as indexes,
           array_agg(pg_relation_size(x.indexrelid)::float8 order by x.indexrelid) as "indexBytes"
    from pg_class parent
    join pg_namespace pn on pn.oid = parent.relnamespace
    cross join lateral prediction.month_partitions(parent.oid) b
    join pg_class child on child.oid = b.partition and child.relkind = 'r'
    join pg_index x on x.indrelid = child.oid and x.indisvalid
    join pg_class ic on ic.oid = x.indexrelid
    where parent.relkind = 'p' and pn.nspname = ${predictionSchema.schemaName} and b.range_end <= ${closedBefore.toISOString()}::timestamptz
      and not exists (select from pg_stat_progress_create_index p where p.relid = child.oid)
    group by parent.relname, child.oid, b.range_start, b.range_end
    having bool_or(not coalesce(ic.reloptions @> array[${PACKED_INDEX_OPTION}], false))
    order by b.range_start, parent.relname
    limit ${limit}`;
}
