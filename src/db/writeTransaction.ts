import type postgres from 'postgres';

import { acquireWriteLock, type WriteFence } from '../sql/coordination/acquireWriteLock.js';
import type { Sql } from './connect.js';
import { settingsOf } from './openPool.js';
import { DatabaseDeadlineError, withDeadline } from './withDeadline.js';

export interface WriteTransactionOptions {
  /**
   * Longest the transaction may take, waiting for the write lock included, before it is abandoned
   * with a DatabaseDeadlineError. Default: the pool's transaction deadline (SessionSettings), or
   * the writer role's default (30 s) for a pool that connect() did not open.
   */
  deadlineMs?: number;
}

/**
 * The one way to write: a transaction that first takes the write lock and checks the fence, then
 * runs `work`, and commits only if all of it finished within the deadline. Past the deadline the
 * caller gets a DatabaseDeadlineError at once; should the hung connection come back later, the
 * transaction rolls back instead of committing behind the caller's back.
 */
export function writeTransaction<T>(
  sql: Sql,
  fence: WriteFence | undefined,
  work: (tx: postgres.TransactionSql) => Promise<T>,
  options: WriteTransactionOptions = {},
): Promise<T> {
  const deadlineMs = options.deadlineMs ?? settingsOf(sql).transactionDeadlineMs;
  return withDeadline('write transaction', deadlineMs, async (expired) => {
    const committed = await sql.begin(async (tx) => {
      await acquireWriteLock(tx, fence);
      // A lock granted after the deadline: the caller has moved on, the work is not done.
      if (expired.aborted) throw new DatabaseDeadlineError('write transaction', deadlineMs);
      const result = await work(tx);
      if (expired.aborted) throw new DatabaseDeadlineError('write transaction', deadlineMs);
      return result;
    });
    return committed as T;
  });
}
