import type { Queryable } from './queryable.js';

/**
 * The rows of one partition (`partition` as selectRetentionCandidates names it, from the catalog),
 * counted under a statement timeout of `timeoutMs` set for this transaction only: a month of
 * history can take minutes to count, far past the writers' statement timeout. Run it in a
 * transaction of its own, outside the write lock, so that writers do not wait for the count.
 */
export async function countPartitionRows(sql: Queryable, partition: string, timeoutMs: number): Promise<number> {
  await sql`select set_config('statement_timeout', ${`${timeoutMs}ms`}, true)`;
  const [row] = await sql.unsafe<{ rows: string }[]>(`select count(*) as rows from ${partition}`);
  return Number(row?.rows ?? 0);
}
