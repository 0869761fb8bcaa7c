import type { Queryable } from '../sql/queryable.js';

/** The export's snapshot, as xid8 text. */
export interface SnapshotBounds {
  /** Oldest transaction still running when the snapshot was taken: every older one is in it. */
  xmin: string;
  /** First transaction id not yet assigned then. */
  xmax: string;
}

/** The snapshot of the calling (repeatable-read) transaction. */
export async function readSnapshot(sql: Queryable): Promise<SnapshotBounds> {
  const [row] = await sql<SnapshotBounds[]>`
    select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_snapshot_xmax(pg_current_snapshot())::text as xmax`;
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
