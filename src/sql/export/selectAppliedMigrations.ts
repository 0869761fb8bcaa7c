import type { Queryable } from '../core/queryable.js';

/** How many migrations drizzle's migrator recorded, and the journal time (`when`) of the latest: what identifies the schema. */
export async function selectAppliedMigrations(sql: Queryable): Promise<{ count: number; latestCreatedAt: number | null }> {
  // drizzle's own bookkeeping table (schema "drizzle", see db/migrate.ts), not part of src/schema.
  const [row] = await sql<{ count: number; latest: string | null }[]>`
    select count(*)::int as count, max(created_at)::text as latest from drizzle.__drizzle_migrations`;
  return { count: row?.count ?? 0, latestCreatedAt: row?.latest === null || row?.latest === undefined ? null : Number(row.latest) };
}
