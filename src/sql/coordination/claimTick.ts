import { jobTicks } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: ticks, col: c } = sqlNames(jobTicks);

/** Claimed ticks older than this are forgotten: nothing reads them (a tick is claimed at most minutes late). */
const TICK_RETENTION = '1 day';

/**
 * Claims one scheduled tick of a job for this instance; false when another instance already did.
 * Each claim also forgets that job's ticks older than a day, whatever the schedule: a range delete
 * on the primary key (job, tick_at) that finds one or two old rows at most, so it stays cheap.
 */
export async function claimTick(sql: Queryable, job: string, tickAt: Date, instanceId: string, now: Date): Promise<boolean> {
  const claimed = await sql`
    insert into ${sql(ticks)} (${sql(c.job)}, ${sql(c.tickAt)}, ${sql(c.instanceId)}, ${sql(c.claimedAt)})
    values (${job}, ${tickAt}::timestamptz, ${instanceId}, ${now}::timestamptz)
    on conflict do nothing returning 1`;
  if (claimed.count > 0) {
    await sql`
      delete from ${sql(ticks)} where ${sql(c.job)} = ${job} and ${sql(c.tickAt)} < ${now}::timestamptz - ${TICK_RETENTION}::interval`;
  }
  return claimed.count > 0;
}
