import type { Queryable } from './queryable.js';

/**
 * Makes sure every time-partitioned table has its monthly partitions for the UTC months from
 * `from` to `to` (prediction.ensure_month_partitions, 0013). There is no default partition, so a
 * row of a month without one would be refused: writers call this for their observation times
 * first, and the pipeline creates months ahead. Returns how many partitions it created; a month
 * that exists costs a catalog lookup per table.
 */
export async function ensureMonthPartitions(sql: Queryable, from: Date, to: Date = from): Promise<number> {
  const [row] = await sql<{ created: number }[]>`
    select prediction.ensure_month_partitions(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz) as created`;
  return row?.created ?? 0;
}
