import { describe, expect, it } from 'vitest';

import { claimTick } from '../../src/sql/coordination/claimTick.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();

const at = (day: number, hour: number, minute: number) => new Date(Date.UTC(2026, 6, day, hour, minute));
const ticks = async (job: string) =>
  (await db.sql<{ tick_at: Date }[]>`select tick_at from prediction.job_ticks where job = ${job} order by tick_at`).map((r) =>
    r.tick_at.toISOString(),
  );

describe('claimTick', () => {
  it('claims a tick once: a second instance gets false', async () => {
    expect(await claimTick(db.sql, 'once', at(1, 10, 7), 'a', at(1, 10, 7))).toBe(true);
    expect(await claimTick(db.sql, 'once', at(1, 10, 7), 'b', at(1, 10, 7))).toBe(false);
  });

  it('forgets ticks older than a day on a claim at any minute, not only on the hour', async () => {
    // A schedule that never hits minute 0 ("7-59/15 * * * *"): prune on such claims too.
    await claimTick(db.sql, 'never-on-the-hour', at(1, 10, 7), 'a', at(1, 10, 7));
    await claimTick(db.sql, 'never-on-the-hour', at(1, 10, 22), 'a', at(1, 10, 22));
    await claimTick(db.sql, 'other-job', at(1, 10, 7), 'a', at(1, 10, 7));
    expect(await claimTick(db.sql, 'never-on-the-hour', at(2, 10, 22), 'a', at(2, 10, 22))).toBe(true);
    // The tick exactly a day old stays (older than a day goes); other jobs' ticks are theirs to prune.
    expect(await ticks('never-on-the-hour')).toEqual([at(1, 10, 22).toISOString(), at(2, 10, 22).toISOString()]);
    expect(await ticks('other-job')).toEqual([at(1, 10, 7).toISOString()]);
    await claimTick(db.sql, 'never-on-the-hour', at(2, 10, 37), 'a', at(2, 10, 37));
    expect(await ticks('never-on-the-hour')).toEqual([at(2, 10, 22).toISOString(), at(2, 10, 37).toISOString()]);
  });
});
