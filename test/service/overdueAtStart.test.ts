/**
 * A job that has not finished well within its period runs once at start (runOverdueAtStart), so a
 * new install or a service back from a long stop does not wait for the first tick: with the
 * default schedules, up to 10 minutes for its first crawl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { holdWriteLock } from '../helpers/holdWriteLock.js';
import { captureLogger, EVERY_SECOND, NEVER, runIntervals, startTestService } from '../helpers/serviceHarness.js';
import { startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 8, markets: 30 }));
});
afterAll(() => sim.stop());

// No tick fires within the test: whatever runs, runs because it was overdue at start.
const schedules = { crawl: NEVER, details: NEVER, orderbooks: NEVER, trades: NEVER };
const OVERDUE = 'no run within its period: the job runs now, before its first tick';

describe('jobs overdue at start', () => {
  it('run once before their first tick; a job that succeeded within its period waits for it', async () => {
    const db = await createTestDatabase();
    const crawls = async () => (await runIntervals(db.sql)).filter((r) => r.job === 'crawl').map((r) => r.status);
    /** Starts an instance, waits until `settled` and no run is left running, stops it; returns the jobs it found overdue. */
    const startOnce = async (runOverdueAtStart: boolean, settled: () => Promise<boolean>) => {
      const log = captureLogger();
      const { service, client } = await startTestService(sim, db.url, { schedules, runOverdueAtStart, logger: log.logger });
      try {
        // Written as the scheduler starts, before startService resolves.
        const overdue = log.lines.filter((l) => l.msg === OVERDUE).map((l) => l.job);
        await expect
          .poll(
            async () => (await settled()) && (await db.sql`select 1 from prediction.ingest_runs where status = 'running'`).length === 0,
            {
              timeout: 30_000,
            },
          )
          .toBe(true);
        return overdue;
      } finally {
        await service.stop();
        await client.close();
      }
    };

    // Off (the option's default): nothing is overdue, nothing runs.
    expect(await startOnce(false, async () => true)).toEqual([]);
    expect(await runIntervals(db.sql)).toEqual([]);

    // A new database: every job is overdue, and the crawl fills the catalogue at once.
    const first = await startOnce(true, async () => (await crawls()).length === 1);
    expect(first.sort()).toEqual(['crawl', 'details', 'orderbooks', 'trades']);
    expect(await crawls()).toEqual(['succeeded']);
    const [row] = await db.sql<{ events: number }[]>`select count(*)::int as events from prediction.events`;
    expect(row!.events).toBeGreaterThan(0);

    // Started again: the crawl succeeded within its period (a year), so it waits for its tick.
    expect(await startOnce(true, async () => true)).not.toContain('crawl');
    expect(await crawls()).toEqual(['succeeded']);

    // Its last success moved back beyond its period: overdue again, it runs at start.
    await db.sql`update prediction.ingest_runs set started_at = started_at - interval '2 years', finished_at = finished_at - interval '2 years' where job = 'crawl'`;
    expect(await startOnce(true, async () => (await crawls()).length === 2)).toContain('crawl');
    expect(await crawls()).toEqual(['succeeded', 'succeeded']);
  });

  it('skip the ticks that come while they run, saying the run is on this instance', async () => {
    const db = await createTestDatabase();
    const log = captureLogger();
    // The first crawl waits for the write lock (its first write records the listing), so the ticks of every second find it running.
    const lock = await holdWriteLock(db.sql);
    const { service, client } = await startTestService(sim, db.url, {
      schedules: { ...schedules, crawl: EVERY_SECOND },
      runOverdueAtStart: true,
      logger: log.logger,
    });
    try {
      const skipped = () => log.lines.filter((l) => l.job === 'crawl' && l.msg.endsWith('tick skipped')).map((l) => l.msg);
      await expect.poll(() => skipped().length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(new Set(skipped())).toEqual(new Set(['job is still running on this instance; tick skipped']));
    } finally {
      await lock.release();
      await service.stop();
      await client.close();
    }
  });
});
