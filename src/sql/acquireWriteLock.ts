import type { Queryable } from './queryable.js';

/**
 * Fixed key of the transaction-level advisory lock every page write takes first. It serializes
 * writers across processes, which keeps the change-only compare-then-write race-free and the
 * observation times of history rows monotonic.
 */
export const WRITE_LOCK_KEY = 7_340_112_561_028_416_072n;

/**
 * Proof, checked inside each write transaction, that the writer still holds its job lock. A
 * process that lost the lock (its lock connection died, another instance took over) must not
 * commit anything more: the check throws and the transaction rolls back.
 */
export type WriteFence = (tx: Queryable) => Promise<void>;

/** Waits for the write lock (released when the transaction ends), then checks the fence if any. */
export async function acquireWriteLock(tx: Queryable, fence?: WriteFence): Promise<void> {
  await tx`select pg_advisory_xact_lock(${WRITE_LOCK_KEY.toString()}::bigint)`;
  if (fence) await fence(tx);
}
