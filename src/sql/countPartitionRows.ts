import type postgres from 'postgres';
import { onCancellableSession } from './onCancellableSession.js';

/**
 * The rows of one partition (`partition` as selectRetentionCandidates names it, from the catalog),
 * counted on a connection of its own under a statement timeout of `timeoutMs`: a month of history
 * can take minutes to count. Aborting `signal` cancels the count (onCancellableSession). Run it
 * outside the write lock, so that writers do not wait for the count.
 */
export function countPartitionRows(
  sql: postgres.Sql,
  partition: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<number> {
  return onCancellableSession(sql, options.signal, async (session) => {
    await session`select set_config('statement_timeout', ${`${options.timeoutMs}ms`}, false)`;
    try {
      const [row] = await session.unsafe<{ rows: string }[]>(`select count(*) as rows from ${partition}`);
      return Number(row?.rows ?? 0);
    } finally {
      // Back to the pool's own setting (from the connection's start-up) before the pool reuses it.
      await session`reset statement_timeout`;
    }
  });
}
