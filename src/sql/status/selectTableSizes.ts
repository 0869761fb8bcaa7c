import { predictionSchema } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { PACKED_INDEX_OPTION } from '../upkeep/selectUnpackedPartitions.js';

export interface TableSize {
  /** The table's name, without its schema. */
  table: string;
  /** pg_total_relation_size: heap, TOAST and indexes; for a partitioned table, the sum over its partitions. */
  bytes: number;
  /** pg_class.reltuples, the planner's estimate as of the last ANALYZE; null for a table never analyzed. */
  rowsEstimate: number | null;
  /** For a partition, the partitioned table at the root of its tree; null for any other table. */
  partitionOf: string | null;
  /** For a partition, whether its indexes are packed (packClosedPartitions: a closed month); null for any other table. */
  packed: boolean | null;
}

/**
 * The size of every table of the `prediction` schema: plain and partitioned tables, then each leaf
 * partition apart (named with its root), largest first. Read from the catalog, so it lists what
 * the database holds, whatever the schema declares.
 */
export async function selectTableSizes(sql: Queryable): Promise<TableSize[]> {
  // relkind r: a table or a leaf partition; p: a partitioned table, which has no storage (nor, as
  // autovacuum never analyzes it, row estimate) of its own: both are summed over its partitions.
  // Partitions live in their own schema (prediction_partitions) and are listed under their root.
  return sql<TableSize[]>`
    select c.relname as "table",
      (case when c.relkind = 'p'
        then (select coalesce(sum(pg_total_relation_size(t.relid)), 0) from pg_partition_tree(c.oid) t)
        else pg_total_relation_size(c.oid) end)::float8 as bytes,
      (case when c.relkind = 'p'
        then (select sum(p.reltuples) filter (where p.reltuples >= 0) from pg_partition_tree(c.oid) t
              join pg_class p on p.oid = t.relid where t.isleaf)
        when c.reltuples < 0 then null else c.reltuples end)::float8 as "rowsEstimate",
      root.relname as "partitionOf",
      (case when c.relispartition then coalesce(
        (select bool_and(coalesce(ic.reloptions @> array[${PACKED_INDEX_OPTION}], false))
         from pg_index x join pg_class ic on ic.oid = x.indexrelid where x.indrelid = c.oid), false) end) as packed
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_class root on c.relispartition and root.oid = pg_partition_root(c.oid)
    left join pg_namespace rn on rn.oid = root.relnamespace
    where c.relkind in ('r', 'p')
      and (n.nspname = ${predictionSchema.schemaName} and not c.relispartition
           or c.relispartition and rn.nspname = ${predictionSchema.schemaName})
    order by 2 desc, 1`;
}
