import { jobLeases } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: leases, col: c } = sqlNames(jobLeases);

/**
 * Inside a write transaction: whether `token` still holds an unexpired lease `name`. When it
 * does, the row stays locked FOR KEY SHARE until the transaction ends, so no takeover can come
 * between this check and the commit (acquireLease locks the row FOR UPDATE, which conflicts).
 * KEY SHARE is the weakest lock that does: it leaves the holder's own heartbeat (a plain UPDATE
 * of non-key columns) free to renew the lease while a long write is in flight, which FOR SHARE or
 * FOR NO KEY UPDATE would block until the commit.
 */
export async function checkLease(tx: Queryable, name: string, token: number): Promise<boolean> {
  const rows = await tx`
    select 1 from ${tx(leases)}
    where ${tx(c.name)} = ${name} and ${tx(c.token)} = ${token}::bigint and ${tx(c.expiresAt)} > clock_timestamp()
    for key share`;
  return rows.length > 0;
}
