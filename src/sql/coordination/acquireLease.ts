import type postgres from 'postgres';

import { jobLeases } from '../../schema/index.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table: leases, col: c } = sqlNames(jobLeases);
const TOKEN = selection(jobLeases, ['token']);

/**
 * Takes the lease `name` for `ttlMs` if it is free (never taken, released, or expired), and
 * returns its new fencing token (one more than the last holder's); null while someone holds it.
 *
 * The row is locked FOR UPDATE SKIP LOCKED: a holder's write transaction keeps its lease row
 * locked (FOR KEY SHARE, see checkLease) until it commits, so a lease that expired in the middle of
 * such a write is reported busy rather than taken under that write's feet. Times are the
 * database's clock, never this host's.
 */
export async function acquireLease(sql: postgres.Sql, name: string, holder: string, ttlMs: number): Promise<{ token: number } | null> {
  return sql.begin(async (tx) => {
    await tx`
      insert into ${tx(leases)} (${tx(c.name)}, ${tx(c.holder)}, ${tx(c.token)}, ${tx(c.acquiredAt)}, ${tx(c.expiresAt)})
      values (${name}, ${holder}, 0, clock_timestamp(), '-infinity')
      on conflict (${tx(c.name)}) do nothing`;
    const [row] = await tx<{ free: boolean }[]>`
      select ${tx(c.expiresAt)} <= clock_timestamp() as free from ${tx(leases)} where ${tx(c.name)} = ${name}
      for update skip locked`;
    if (!row?.free) return null;
    const [taken] = await tx<RowOf<typeof TOKEN>[]>`
      update ${tx(leases)}
      set ${tx(c.holder)} = ${holder}, ${tx(c.token)} = ${tx(c.token)} + 1, ${tx(c.acquiredAt)} = clock_timestamp(),
          ${tx(c.expiresAt)} = clock_timestamp() + ${ttlMs}::float8 * interval '1 millisecond'
      where ${tx(c.name)} = ${name}
      returning ${tx.unsafe(TOKEN.text)}`;
    return { token: Number(taken!.token) };
  });
}
