import type { Queryable } from '../core/queryable.js';

/** The database server's clock now (clock_timestamp(): the instant of the call, not of the transaction's start). */
export async function selectDatabaseClock(sql: Queryable): Promise<Date> {
  const [row] = await sql<{ at: Date }[]>`select clock_timestamp() as at`;
  return row!.at;
}
