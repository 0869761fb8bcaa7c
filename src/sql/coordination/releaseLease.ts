import { jobLeases } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: leases, col: c } = sqlNames(jobLeases);

/** Frees the lease `name` if `token` still holds it (expired now: the next acquireLease takes it at once). */
export async function releaseLease(sql: Queryable, name: string, token: number): Promise<void> {
  await sql`
    update ${sql(leases)} set ${sql(c.expiresAt)} = least(${sql(c.expiresAt)}, clock_timestamp())
    where ${sql(c.name)} = ${name} and ${sql(c.token)} = ${token}::bigint`;
}
