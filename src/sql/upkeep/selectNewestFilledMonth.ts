import { predictionSchema } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';

/**
 * The start of the newest month that holds a row in any of the prediction schema's partitioned
 * tables (the month of the newest stored observation), or null when they are all empty. Months
 * are tried newest first, each by one row's existence: no index serves a max() over every
 * partition, and the newest filled month is at most a few empty ones away.
 */
export async function selectNewestFilledMonth(sql: Queryable): Promise<Date | null> {
  const months = await sql<{ partition: string; rangeStart: Date }[]>`
    select b.partition::text as partition, b.range_start as "rangeStart"
    from pg_class parent
    join pg_namespace pn on pn.oid = parent.relnamespace
    cross join lateral prediction.month_partitions(parent.oid) b
    where parent.relkind = 'p' and pn.nspname = ${predictionSchema.schemaName}
    order by b.range_start desc`;
  for (const { partition, rangeStart } of months) {
    // The partition's name comes from the catalog (regclass text, quoted as SQL needs it).
    const [row] = await sql.unsafe<{ filled: boolean }[]>(`select exists (select 1 from ${partition}) as filled`);
    if (row?.filled) return rangeStart;
  }
  return null;
}
