import type { Queryable } from './queryable.js';

/**
 * Claims one scheduled tick of a job for this instance; false when another instance already did.
 * On the hour it also forgets ticks older than a day, which nothing reads.
 */
export async function claimTick(sql: Queryable, job: string, tickAt: Date, instanceId: string, now: Date): Promise<boolean> {
  const claimed = await sql`
    insert into prediction.job_ticks (job, tick_at, instance_id, claimed_at)
    values (${job}, ${tickAt}::timestamptz, ${instanceId}, ${now}::timestamptz)
    on conflict do nothing returning 1`;
  if (claimed.count > 0 && tickAt.getUTCMinutes() === 0) {
    await sql`delete from prediction.job_ticks where job = ${job} and tick_at < ${now}::timestamptz - interval '1 day'`;
  }
  return claimed.count > 0;
}
