import type postgres from 'postgres';

/**
 * The rows of one partition (`partition` as selectRetentionCandidates names it, from the catalog),
 * counted under a statement timeout of `timeoutMs`: a month of history can take minutes to count.
 * `session` is a connection of its own (db/onCancellableSession.ts, so that the count can be
 * cancelled), taken outside the write lock, so that writers do not wait for the count.
 */
export async function countPartitionRows(session: postgres.ReservedSql, partition: string, timeoutMs: number): Promise<number> {
  await session`select set_config('statement_timeout', ${`${timeoutMs}ms`}, false)`;
  try {
    const [row] = await session.unsafe<{ rows: string }[]>(`select count(*) as rows from ${partition}`);
    return Number(row?.rows ?? 0);
  } finally {
    // Back to the pool's own setting (from the connection's start-up) before the pool reuses it.
    await session`reset statement_timeout`;
  }
}
