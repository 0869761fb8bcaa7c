import type { Queryable } from '../core/queryable.js';

/** Releases the lock tryExportLock took, on the same session. */
export async function releaseExportLock(sql: Queryable, directoryKey: string): Promise<void> {
  await sql`select pg_advisory_unlock(hashtextextended(${`prediction-ingest export ${directoryKey}`}, 0))`;
}
