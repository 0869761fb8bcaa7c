import { predictionSchema } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';

/** A session that holds (or waits ahead for) a lock the session `pid` is waiting for. */
export interface LockBlocker {
  pid: number;
  /** Its login (pg_stat_activity.usename). */
  user: string;
  /** Its application_name, as the client set it (a BI tool usually names itself). */
  application: string;
  /** active, idle in transaction, …; null when this role may not see it (another login's, without pg_read_all_stats). */
  state: string | null;
  /** When its current transaction began. */
  transactionStart: Date | null;
  /**
   * Its login can write no table of `prediction` and is no superuser: a reader (a BI tool, an
   * analyst), whose session may be ended so that ingestion can go on.
   */
  readOnly: boolean;
}

/** The client sessions blocking `pid` right now (pg_blocking_pids); empty when it waits for nothing. */
export async function findLockBlockers(sql: Queryable, pid: number): Promise<LockBlocker[]> {
  const rows = await sql<
    { pid: number; user: string; application: string; state: string | null; xact_start: Date | null; read_only: boolean }[]
  >`
    select a.pid, a.usename as user, a.application_name as application, a.state, a.xact_start,
           not r.rolsuper and not exists (
             select from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = ${predictionSchema.schemaName} and c.relkind in ('r', 'p')
               and has_table_privilege(a.usesysid, c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
           ) as read_only
    from unnest(pg_blocking_pids(${pid}::int)) as b(pid)
    join pg_stat_activity a on a.pid = b.pid
    join pg_roles r on r.oid = a.usesysid
    -- Without pg_read_all_stats, another login's backend_type and state read as null.
    where coalesce(a.backend_type, 'client backend') = 'client backend'
    order by a.pid`;
  return rows.map((r) => ({
    pid: r.pid,
    user: r.user,
    application: r.application,
    state: r.state,
    transactionStart: r.xact_start,
    readOnly: r.read_only,
  }));
}
