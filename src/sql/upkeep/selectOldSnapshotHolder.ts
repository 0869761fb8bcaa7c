import type { Queryable } from '../core/queryable.js';

/** A session of this database that has held a snapshot for a while. */
export interface SnapshotHolder {
  pid: number;
  applicationName: string;
  /** How long its transaction has been open. */
  ageSec: number;
}

/**
 * The oldest other session of the current database whose transaction, open for more than
 * `olderThanMs`, holds a snapshot (backend_xmin), or null. REINDEX CONCURRENTLY waits for every such
 * snapshot to go, whatever it reads. Sessions of other roles show only to a role with the
 * privileges of pg_read_all_stats.
 */
export async function selectOldSnapshotHolder(sql: Queryable, olderThanMs: number): Promise<SnapshotHolder | null> {
  const [row] = await sql<SnapshotHolder[]>`
    select pid, coalesce(application_name, '') as "applicationName", extract(epoch from now() - xact_start)::float8 as "ageSec"
    from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and backend_xmin is not null
      and xact_start < now() - make_interval(secs => ${olderThanMs / 1000})
    order by xact_start
    limit 1`;
  return row ?? null;
}
