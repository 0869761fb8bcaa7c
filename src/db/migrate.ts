import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator';

/** Where drizzle-kit writes migrations; resolved from this file so any working directory works. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * Arbitrary but fixed key of the session advisory lock that serializes migrations across
 * processes ("prediction-ingest migrate" hashed to 63 bits, written out so it never changes).
 */
export const MIGRATION_LOCK_KEY = 7_340_112_561_028_416_071n;

export interface MigrateResult {
  /** Migrations applied by this call (0 when the database was already current). */
  applied: number;
  /** Migrations recorded in the database afterwards. */
  total: number;
}

/**
 * Applies pending migrations under a Postgres advisory lock, on one dedicated connection
 * (`max: 1`): the lock is a session lock, so it must be taken and released on the very
 * connection that migrates. drizzle's migrator itself has no lock.
 */
export async function migrate(databaseUrl: string, migrationsFolder = MIGRATIONS_FOLDER): Promise<MigrateResult> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'prediction-ingest migrate' } });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    try {
      const before = await countApplied(sql);
      await drizzleMigrate(drizzle(sql), { migrationsFolder, migrationsSchema: 'drizzle' });
      const total = await countApplied(sql);
      return { applied: total - before, total };
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    }
  } catch (error) {
    throw new Error(`Database migration failed: ${(error as Error).message}`, { cause: error });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function countApplied(sql: postgres.Sql): Promise<number> {
  // Two statements: a reference to a missing table fails at parse time, whatever a CASE says.
  const [exists] = await sql<{ ok: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`;
  if (!exists?.ok) return 0;
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
  return row?.n ?? 0;
}
