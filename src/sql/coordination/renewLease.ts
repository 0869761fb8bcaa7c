import { jobLeases } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: leases, col: c } = sqlNames(jobLeases);

/**
 * Extends the lease `name` held with `token` to `ttlMs` from now. False when it is no longer
 * ours: taken over by another holder, or already expired (then anyone may have taken it, and a
 * holder must not believe it still runs alone).
 */
export async function renewLease(sql: Queryable, name: string, token: number, ttlMs: number): Promise<boolean> {
  const result = await sql`
    update ${sql(leases)} set ${sql(c.expiresAt)} = clock_timestamp() + ${ttlMs}::float8 * interval '1 millisecond'
    where ${sql(c.name)} = ${name} and ${sql(c.token)} = ${token}::bigint and ${sql(c.expiresAt)} > clock_timestamp()`;
  return result.count > 0;
}
