import type { Queryable } from '../core/queryable.js';

/**
 * Withdraws the TEMPORARY privilege on the current database from PUBLIC, which Postgres grants by
 * default, and grants it to the current role: a read-only login cannot create temporary tables
 * (disk and catalog churn on the ingestion's database), the app keeps it.
 *
 * Done at every migrate, not in a migration: a database ACL lives in pg_database, which neither
 * CREATE DATABASE ... TEMPLATE nor pg_dump carries to a copy, so a clone or a restore would lose
 * a migration's revoke for good. Only the database's owner (or a superuser) may change it:
 * returns false, changing nothing, for any other role; true once PUBLIC has no TEMPORARY here.
 */
export async function restrictTempToOwnRole(sql: Queryable): Promise<boolean> {
  const [db] = await sql<{ name: string; may_change: boolean; public_temp: boolean }[]>`
    select d.datname as name,
           (d.datdba = r.oid or r.rolsuper) as may_change,
           (d.datacl is null or exists (
              select from aclexplode(d.datacl) a where a.grantee = 0 and a.privilege_type = 'TEMPORARY')) as public_temp
    from pg_database d, pg_roles r
    where d.datname = current_database() and r.rolname = current_user`;
  if (!db) return false;
  if (!db.public_temp) return true;
  if (!db.may_change) return false;
  await sql`revoke temporary on database ${sql(db.name)} from public`;
  await sql`grant temporary on database ${sql(db.name)} to current_user`;
  return true;
}
