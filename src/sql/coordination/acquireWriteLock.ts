import { writeLock } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: lock, col: c } = sqlNames(writeLock);

/**
 * The row of prediction.write_lock every page write locks first. It serializes writers across
 * processes, which keeps the change-only compare-then-write race-free and the observation times of
 * history rows monotonic. A row lock rather than an advisory lock: any login may call the
 * advisory-lock functions (they are granted to PUBLIC), so a read-only session could take the key
 * and stall every writer, while locking a row takes UPDATE on its table, which only the app's role
 * has (a read-only login cannot even read prediction.write_lock).
 */
export const WRITE_LOCK_ROW = 'writes';

/**
 * Proof, checked inside each write transaction, that the writer still holds its job's lease. A
 * process that lost it (its renewals stopped reaching the database, another instance took over)
 * must not commit anything more: the check throws and the transaction rolls back.
 */
export type WriteFence = (tx: Queryable) => Promise<void>;

/** Waits for the write lock (released when the transaction ends), then checks the fence if any. */
export async function acquireWriteLock(tx: Queryable, fence?: WriteFence): Promise<void> {
  const locked = await tx`select 1 from ${tx(lock)} where ${tx(c.name)} = ${WRITE_LOCK_ROW} for update`;
  if (locked.length === 0) {
    // Migrations create the row; should it have been deleted, writers must still exclude each other.
    await tx`insert into ${tx(lock)} (${tx(c.name)}) values (${WRITE_LOCK_ROW}) on conflict do nothing`;
    await tx`select 1 from ${tx(lock)} where ${tx(c.name)} = ${WRITE_LOCK_ROW} for update`;
  }
  if (fence) await fence(tx);
}
