import type { Queryable } from './queryable.js';

/**
 * Fixed key of the transaction-level advisory lock every page write takes first. It serializes
 * writers across processes, which keeps the change-only compare-then-write race-free and the
 * observation times of history rows monotonic.
 */
export const WRITE_LOCK_KEY = 7_340_112_561_028_416_072n;

/** Waits for the write lock; it is released when the transaction ends (commit, rollback or a dead connection). */
export async function acquireWriteLock(tx: Queryable): Promise<void> {
  await tx`select pg_advisory_xact_lock(${WRITE_LOCK_KEY.toString()}::bigint)`;
}
