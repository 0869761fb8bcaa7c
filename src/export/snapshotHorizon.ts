import type { Queryable } from '../sql/core/queryable.js';

/** The export's snapshot, as xid8 text. */
export interface SnapshotBounds {
  /**
   * Oldest transaction still running when the snapshot was taken that may have written to this
   * database: every older one is in the snapshot. A transaction seen running in another database
   * cannot write here, so it does not hold the horizon back (its xid is the only thing the snapshot
   * and pg_stat_activity share; a session whose xid this role may not see counts as possibly here).
   */
  xmin: string;
  /** First transaction id not yet assigned then. */
  xmax: string;
}

/** The snapshot of the calling (repeatable-read) transaction. */
export async function readSnapshot(sql: Queryable): Promise<SnapshotBounds> {
  // Transactions of other databases are in every snapshot of the cluster: a long one elsewhere
  // would otherwise make the next export rewrite every day written since it began.
  const [row] = await sql<SnapshotBounds[]>`
    with snapshot as (select pg_current_snapshot() as s)
    select coalesce(
             (select min(x) from pg_snapshot_xip(snapshot.s) x
               where not exists (select 1 from pg_stat_activity a
                                  where a.datname <> current_database()
                                    and a.backend_xid = (x::text::numeric % 4294967296)::text::xid)),
             pg_snapshot_xmax(snapshot.s))::text as xmin,
           pg_snapshot_xmax(snapshot.s)::text as xmax
    from snapshot`;
  if (!row) throw new Error('export: no snapshot');
  return row;
}

/** How far back age() can compare xids: 2^31, less a margin for the transactions of the export itself. */
const MAX_AGE = 2n ** 31n - 2n ** 24n;

/**
 * The 32-bit form of a stored horizon (an xid8), which the days queries compare row xmins with; null
 * (everything counts as changed) when there is none, or when it is so old that 32-bit xids have
 * wrapped around since.
 *
 * The horizon is the snapshot's xmin rather than its exact visibility: a row of a transaction that
 * was running then, or of a subtransaction of one, has an xid at or past xmin, so nothing the last
 * export could not see is missed; a few rows committed just before it count as changed again.
 */
export function horizon32(stored: string | undefined, now: SnapshotBounds): string | null {
  if (stored === undefined) return null;
  const horizon = BigInt(stored);
  if (BigInt(now.xmax) - horizon > MAX_AGE) return null;
  return String(horizon & 0xffffffffn);
}
