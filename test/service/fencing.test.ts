import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LeaseLostError } from '../../src/lease/LeaseLostError.js';
import { takeJobLease } from '../../src/lease/takeJobLease.js';
import type { Simulator } from '../../src/simulator/index.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { captureLogger, startTestService } from '../helpers/serviceHarness.js';
import { startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { installCronClock } from './cronClock.js';

const db = await useTestDatabase();
const page = (id: string) => ({ runId: null, endpoint: '/events', events: [ok(event(id, [market(`${id}-M`)]))], observedAt: new Date() });

let sim: Simulator;
beforeAll(async () => {
  // Slow enough that a crawl is still running when the test takes its lease away.
  ({ sim } = await startHarness({ seed: 13, markets: 600, maxPageSize: 20, faults: { latencyMs: 60 }, nowMs: () => Date.now() }));
});
afterAll(() => sim.stop());

/**
 * Another instance takes the lease of `job` over, as it would after the holder's lease expired:
 * FOR UPDATE first, like acquireLease, so a write of the holder that is in flight commits before.
 */
async function takeOver(sql: postgres.Sql, job: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select 1 from prediction.job_leases where name = ${job} for update`;
    await tx`update prediction.job_leases set token = token + 1, holder = 'intruder', acquired_at = clock_timestamp(),
      expires_at = clock_timestamp() + interval '1 hour' where name = ${job}`;
  });
}

const dataRows = async (sql: postgres.Sql) =>
  (
    await sql`select (select count(*) from prediction.events)::int as events, (select count(*) from prediction.markets)::int as markets,
    (select count(*) from prediction.pricing_snapshots)::int as pricing, (select count(*) from prediction.market_state_history)::int as history`
  )[0];

describe('job lease fencing', () => {
  it('one holder at a time; a holder whose lease was taken over commits nothing more', async () => {
    const lease = (await takeJobLease(db.sql, 'crawl', { holder: 'A', ttlMs: 30_000 }))!;
    expect(lease).not.toBeNull();
    expect(await takeJobLease(db.sql, 'crawl', { holder: 'B', ttlMs: 30_000 })).toBeNull();

    await writeEvents(db.sql, { ...page('E1'), fence: lease.fence });
    // A takeover: the lease expired (its renewals stopped reaching the database) and B took it.
    await db.sql`update prediction.job_leases set expires_at = clock_timestamp() where name = 'crawl'`;
    const next = (await takeJobLease(db.sql, 'crawl', { holder: 'B', ttlMs: 30_000 }))!;
    expect(next).not.toBeNull();
    await expect(writeEvents(db.sql, { ...page('E2'), fence: lease.fence })).rejects.toBeInstanceOf(LeaseLostError);
    expect(lease.lost.aborted).toBe(true);
    await writeEvents(db.sql, { ...page('E3'), fence: next.fence });
    const events = await db.sql`select event_id from prediction.events order by event_id`;
    expect(events.map((e) => e.event_id)).toEqual(['E1', 'E3']);
    await lease.release();
    await next.release();
  });

  it('the service: a run whose lease is taken over stops, commits nothing more, and the job is not run again meanwhile', async () => {
    const own = await createTestDatabase();
    const { logger, lines } = captureLogger();
    const clock = installCronClock(new Date(sim.world.nowSec * 1000));
    try {
      const { service } = await startTestService(sim, own.url, {
        logger,
        categories: ['all'],
        // Only the crawl writes here, so any row written after the takeover would be its own.
        schedules: { details: '0 0 1 1 *', orderbooks: '0 0 1 1 *' },
      });
      try {
        clock.watchNewTasks();
        // A crawl that has written some pages and is still running (the simulator's latency is real time).
        const t1 = clock.advanceToNextSecond();
        const running = await clock.until('a crawl that has written pages and is still running', async () =>
          (await dataRows(own.sql))!.events > 0
            ? (await own.sql`select run_id from prediction.ingest_runs where job = 'crawl' and status = 'running'`)[0]
            : null,
        );
        await takeOver(own.sql, 'crawl');
        const atTakeover = await dataRows(own.sql);

        const [run] = await clock.until('the crawl to end', async () => {
          const rows = await own.sql`select status, error from prediction.ingest_runs where run_id = ${running.run_id}`;
          return rows[0]!.status === 'running' ? null : rows;
        });
        expect(['aborted', 'failed']).toContain(run!.status);
        expect(await dataRows(own.sql)).toEqual(atTakeover);

        // Its tick ends once the run is recorded and logged.
        await clock.until('the first tick done', () => clock.outcomes(t1).length === 1);
        expect(lines.filter((l) => l.msg === 'job stopped: it lost its lease').map((l) => l.job)).toEqual(['crawl']);
        // Three more ticks find the lease held by the intruder: no new crawl run, nothing written.
        for (let i = 0; i < 3; i++) await clock.tick();
        expect(await dataRows(own.sql)).toEqual(atTakeover);
        const later = await own.sql`select run_id from prediction.ingest_runs where job = 'crawl' and run_id > ${running.run_id}`;
        expect(later).toEqual([]);
        expect(lines.filter((l) => l.msg === 'job is still running on another instance; tick skipped').length).toBe(3);
      } finally {
        await service.stop();
      }
    } finally {
      clock.uninstall();
      await own.close();
    }
  });
});
