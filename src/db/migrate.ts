import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';

import { LOCK_NOT_AVAILABLE, withSqlState } from '../errors/withSqlState.js';
import { restrictTempToOwnRole } from '../sql/admin/restrictTempToOwnRole.js';
import { MigrationBlockedError } from './MigrationBlockedError.js';
import { openPool } from './openPool.js';
import { migrationSettings, ROLE_SETTINGS } from './sessionSettings.js';
import { type SeenBlocker, watchLockBlockers } from './watchLockBlockers.js';
import { withMigrationLock } from './withMigrationLock.js';

/** Where drizzle-kit writes migrations; resolved from this file so any working directory works. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface MigrateOptions {
  /** Default: MIGRATIONS_FOLDER. */
  migrationsFolder?: string;
  /** Longest wait for another process's migration to finish (the migration lock). Default 15 min. */
  lockWaitMs?: number;
  /**
   * lock_timeout of the migrating session, per attempt. Short: while a schema change waits for its
   * table lock, every other session of that table queues behind it. Default 5000.
   */
  lockTimeoutMs?: number;
  /** statement_timeout of the migrating session; the client's deadlines follow it (migrationSettings). Default 15 min. */
  statementTimeoutMs?: number;
  /** Attempts when a table lock is not granted within lockTimeoutMs, 0.5 s, 1 s, … (at most 5 s) apart. Default 8. */
  attempts?: number;
  /**
   * Ends the sessions of read-only logins (see LockBlocker.readOnly) that hold a lock the migration
   * waits for, when this role may (superuser, member of pg_signal_backend or of their role).
   * Default true.
   */
  terminateReadOnlyBlockers?: boolean;
}

export interface MigrateResult {
  /** Migrations applied by this call (0 when the database was already current). */
  applied: number;
  /** Migrations recorded in the database afterwards. */
  total: number;
  /**
   * Whether only the app's role (not PUBLIC) may create temporary tables in this database
   * (restrictTempToOwnRole); false when this role does not own the database, which leaves it as is.
   */
  tempRestricted: boolean;
}

/**
 * Applies pending migrations with drizzle's migrator, which has no lock of its own, under the
 * migration lock (withMigrationLock). The lock and the migration use a connection each, the
 * migrating one with a short lock_timeout: a table lock not granted in time is retried, while a
 * watcher ends read-only sessions that hold it up. A login that can only read thus neither
 * blocks nor delays start-up for long; if a session that cannot be ended keeps blocking, the
 * error names it (pid, login, application). Afterwards, PUBLIC loses TEMPORARY on the database.
 */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
  const attempts = options.attempts ?? 8;
  const migrating = openPool(
    databaseUrl,
    { ...migrationSettings(options.statementTimeoutMs), lockTimeoutMs },
    { max: 1, applicationName: 'prediction-ingest migrate' },
  );
  // One connection holds the lock, the other watches for blockers.
  const locking = openPool(databaseUrl, ROLE_SETTINGS.migration, { max: 2, applicationName: 'prediction-ingest migration lock' });
  try {
    return await withMigrationLock(locking.sql, options.lockWaitMs ?? 15 * 60_000, async () => {
      const before = await countApplied(migrating.sql);
      const blockers = new Map<number, SeenBlocker>();
      for (let attempt = 1; ; attempt++) {
        const [{ pid }] = (await migrating.sql<{ pid: number }[]>`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
        const watch = watchLockBlockers(locking.sql, pid, {
          intervalMs: 250,
          terminateReadOnly: options.terminateReadOnlyBlockers ?? true,
        });
        try {
          await drizzleMigrate(drizzle(migrating.sql), {
            migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER,
            migrationsSchema: 'drizzle',
          });
          break;
        } catch (error) {
          // drizzle wraps the server's error (its message quotes the whole statement).
          const lockError = withSqlState(error, LOCK_NOT_AVAILABLE);
          if (!lockError) throw error;
          await watch.stop();
          for (const [pid, blocker] of watch.seen) blockers.set(pid, blocker);
          if (attempt >= attempts) throw new MigrationBlockedError(attempts, lockTimeoutMs, [...blockers.values()], { cause: lockError });
          // Give the blockers that were ended time to go, and writers time to commit.
          await delay(Math.min(5_000, 500 * attempt));
        } finally {
          await watch.stop();
        }
      }
      const total = await countApplied(migrating.sql);
      const tempRestricted = await restrictTempToOwnRole(migrating.sql);
      return { applied: total - before, total, tempRestricted };
    });
  } catch (error) {
    throw new Error(`Database migration failed: ${(error as Error).message}`, { cause: error });
  } finally {
    await Promise.all([migrating.close(), locking.close()]);
  }
}

async function countApplied(sql: postgres.Sql): Promise<number> {
  // Two statements: a reference to a missing table fails at parse time, whatever a CASE says.
  const [exists] = await sql<{ ok: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`;
  if (!exists?.ok) return 0;
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
  return row?.n ?? 0;
}
