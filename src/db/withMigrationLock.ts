import type postgres from 'postgres';

/**
 * The table whose EXCLUSIVE lock serializes migrations across processes. It lives in drizzle's own
 * schema (created here first when missing): the app's migrations create `prediction` and
 * `analytics` themselves, and no login but the app's has any privilege on `drizzle`.
 *
 * Not an advisory lock: the advisory-lock functions are granted to PUBLIC, so a read-only login
 * could take the key and keep every instance from starting. LOCK TABLE ... IN EXCLUSIVE MODE
 * needs UPDATE, DELETE or TRUNCATE on the table, and EXCLUSIVE does not conflict with the ACCESS
 * SHARE that SELECT takes, the most a reader could ever hold on it.
 */
export const MIGRATION_LOCK_TABLE = 'drizzle.migration_lock';

const DUPLICATE = new Set(['23505', '42P06', '42P07']); // unique_violation, duplicate_schema, duplicate_table

/** Creates the lock table if missing, committed on its own (see withMigrationLock). Safe to race. */
export async function createMigrationLockTable(sql: postgres.Sql): Promise<void> {
  const [row] = await sql<{ exists: boolean }[]>`select to_regclass(${MIGRATION_LOCK_TABLE}) is not null as exists`;
  if (row?.exists) return;
  try {
    await sql.begin(async (tx) => {
      await tx`create schema if not exists drizzle`;
      await tx`create table if not exists drizzle.migration_lock (held boolean)`;
      await tx`revoke all on table drizzle.migration_lock from public`;
      await tx`comment on table drizzle.migration_lock is 'Locked in EXCLUSIVE mode by the process applying migrations; holds no rows.'`;
    });
  } catch (error) {
    // Another process created it at the same moment (IF NOT EXISTS does not cover a concurrent creation).
    if (!DUPLICATE.has((error as { code?: string }).code ?? '')) throw error;
  }
}

/**
 * Runs `fn` while holding the migration lock, waiting at most `waitMs` for another process's
 * migration to end (then failing with SQLSTATE 55P03). The lock is held by a transaction on `sql`
 * (a pool of its own) while `fn` migrates on another connection, so that transaction must not have
 * created anything the migration touches: the table is created and committed first
 * (createMigrationLockTable), else the migrating connection would wait for the lock's transaction,
 * which waits for it.
 */
export async function withMigrationLock<T>(sql: postgres.Sql, waitMs: number, fn: () => Promise<T>): Promise<T> {
  await createMigrationLockTable(sql);
  return sql.begin(async (tx) => {
    await tx`select set_config('lock_timeout', ${String(waitMs)}, true), set_config('statement_timeout', ${String(waitMs + 10_000)}, true)`;
    // Idle by design while the other connection migrates: the lock ends with this process or its connection.
    await tx`select set_config('idle_in_transaction_session_timeout', '0', true)`;
    await tx`lock table drizzle.migration_lock in exclusive mode`;
    return fn();
  }) as Promise<T>;
}
