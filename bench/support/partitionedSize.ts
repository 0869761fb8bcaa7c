import type postgres from 'postgres';

/** Bytes on disk of a partitioned table: sums over its partitions, the parent having no storage of its own. */
export interface PartitionedSize {
  /** Leaf partitions, empty ones included. */
  partitions: number;
  /** Main fork of the heaps (pg_relation_size). */
  heapBytes: number;
  /** Every index of every partition (pg_indexes_size): here the primary key and partial indexes. */
  indexBytes: number;
  /** Heaps, indexes, TOAST, free-space and visibility maps (pg_total_relation_size). */
  totalBytes: number;
}

/** The size of `table` (schema-qualified) and of all its partitions, from pg_partition_tree. */
export async function partitionedSize(sql: postgres.Sql, table: string): Promise<PartitionedSize> {
  const [row] = await sql<{ partitions: number; heap: string; indexes: string; total: string }[]>`
    select count(*) filter (where t.isleaf)::int as partitions,
           coalesce(sum(pg_relation_size(t.relid)), 0) as heap,
           coalesce(sum(pg_indexes_size(t.relid)), 0) as indexes,
           coalesce(sum(pg_total_relation_size(t.relid)), 0) as total
    from pg_partition_tree(${table}::regclass) t`;
  return { partitions: row!.partitions, heapBytes: Number(row!.heap), indexBytes: Number(row!.indexes), totalBytes: Number(row!.total) };
}
