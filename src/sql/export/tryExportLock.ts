import type { Queryable } from '../core/queryable.js';

/**
 * Takes the session lock that keeps two exports out of one output directory, if free. A session
 * lock, not a lease: it goes with the session, so a killed export never leaves it behind. Only
 * exports take it: a reader holding it could delay an export, never ingestion. `directoryKey` names
 * the directory itself (device and inode), not a path to it: two paths to one directory (a bind
 * mount) are one lock.
 */
export async function tryExportLock(sql: Queryable, directoryKey: string): Promise<boolean> {
  const [row] = await sql<{ locked: boolean }[]>`
    select pg_try_advisory_lock(hashtextextended(${`prediction-ingest export ${directoryKey}`}, 0)) as locked`;
  return row?.locked ?? false;
}
