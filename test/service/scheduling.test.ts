import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { dbContent } from '../helpers/dbContent.js';
import { holdWriteLock } from '../helpers/holdWriteLock.js';
import { captureLogger, runIntervals, startTestService } from '../helpers/serviceHarness.js';
import { referenceSync, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';
import { type CronClock, installCronClock } from './cronClock.js';

/**
 * The scheduler on a fake clock (see cronClock.ts): every job ticks each second, and the test moves
 * the clock a tick at a time, waiting for each tick to be done on every instance.
 */
let sim: Simulator;

beforeAll(async () => {
  // The simulator's limiter and request log read Date.now when called, so the fake clock's time.
  ({ sim } = await startHarness({ seed: 21, markets: 120, nowMs: () => Date.now() }));
});
afterAll(() => sim.stop());

let installed: CronClock | undefined;
/** The fake clock, from the simulated world's start (a whole second): what the reference sync observes at. */
const useClock = () => (installed = installCronClock(new Date(sim.world.nowSec * 1000)));
afterEach(() => {
  installed?.uninstall();
  installed = undefined;
});

const JOBS = ['crawl', 'details', 'orderbooks'] as const;

const countBy = <T>(items: readonly T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {});

describe('scheduled service', () => {
  it('two instances on one database: each tick claimed once, a job never runs twice at a time, the data of one sync', async () => {
    const db = await createTestDatabase();
    const reference = await createTestDatabase();
    const clock = useClock();
    const logs = [captureLogger(), captureLogger()];
    try {
      const a = await startTestService(sim, db.url, { logger: logs[0]!.logger });
      const b = await startTestService(sim, db.url, { logger: logs[1]!.logger });
      // Four jobs on each instance (the trades job scheduled, though it does not fire here).
      expect(clock.watchNewTasks()).toBe(8);

      // First tick: the crawl starts on one instance and waits for the write lock (its first write
      // records the listing it starts), so it is still running at the second tick. Details and order
      // books have nothing to read before a crawl: they run to the end at once. (The lock is held for
      // two ticks' work, well within the writers' lock_timeout of 10 s of real time.)
      const lock = await holdWriteLock(db.sql);
      const t1 = clock.advanceToNextSecond();
      await clock.until(
        'the first tick done on both instances, but for the crawl, running on one',
        async () =>
          clock.outcomes(t1).length === 5 &&
          (await db.sql`select 1 from prediction.ingest_runs where job = 'crawl' and status = 'running'`).length === 1,
      );
      // Second tick: the instance running the crawl skips it (no overlap); the other one claims it
      // and finds the job's lease taken.
      const t2 = await clock.tick();
      expect(
        countBy(
          clock.outcomes(t2).filter((o) => o.job === 'crawl'),
          (o) => o.outcome,
        ),
      ).toEqual({ overlap: 1, finished: 1 });
      await lock.release();
      await clock.until('the first crawl finished', () => clock.outcomes(t1).length === 6);
      await clock.tick();
      await Promise.all([a.service.stop(), b.service.stop()]);

      // Every tick of every job claimed by exactly one instance, each instance some.
      const ticks = await db.sql<
        { job: string; n: number }[]
      >`select job, count(*)::int as n from prediction.job_ticks group by job, tick_at`;
      expect(countBy(ticks, (t) => t.job)).toEqual({ crawl: 3, details: 3, orderbooks: 3 });
      expect(ticks.filter((t) => t.n !== 1)).toEqual([]);
      const claimedBy = await db.sql`select distinct instance_id from prediction.job_ticks`;
      expect(claimedBy.length).toBe(2);

      // A run per claimed tick, but for the crawl's second tick: its job was still running on the other instance.
      const runs = await runIntervals(db.sql);
      expect(countBy(runs, (r) => `${r.job}:${r.status}`)).toEqual({
        'crawl:succeeded': 2,
        'details:succeeded': 3,
        'orderbooks:succeeded': 3,
      });
      const skipped = logs.flatMap(({ lines }) => lines.filter((l) => l.msg === 'job is still running on another instance; tick skipped'));
      expect(skipped.map((l) => l.job)).toEqual(['crawl']);
      const overlapped = logs.flatMap(({ lines }) => lines.filter((l) => l.msg.includes('blocked by overlap prevention')));
      expect(overlapped.map((l) => l.job)).toEqual(['crawl']);
      // Runs of one job never overlap in time, whichever instance ran them.
      for (const job of JOBS) {
        const ofJob = runs.filter((r) => r.job === job);
        for (let i = 1; i < ofJob.length; i++)
          expect(ofJob[i]!.started_at.getTime()).toBeGreaterThanOrEqual(ofJob[i - 1]!.finished_at!.getTime());
      }

      // Whatever the interleaving, the data is that of one plain sync.
      await referenceSync(reference.sql, sim);
      const [content, expected] = [await dbContent(db.sql), await dbContent(reference.sql)];
      expect(content.events).toEqual(expected.events);
      expect(content.markets).toEqual(expected.markets);
      expect(content.pricing).toEqual(expected.pricing);
      expect(content.books).toEqual(expected.books);
    } finally {
      await db.close();
      await reference.close();
    }
  });

  it('keeps every job within one shared rate limit', async () => {
    const db = await createTestDatabase();
    try {
      // Every job has work from its first tick: the books and details of a synced database.
      await referenceSync(db.sql, sim);
      sim.resetRequests();
      const clock = useClock();
      // Each job ticks once, at the first second: what they send is their runs' whole demand.
      const once = '1 0 0 * * *';
      const { service } = await startTestService(sim, db.url, {
        rateLimit: { requests: 8, windowMs: 1_000 },
        schedules: { crawl: once, details: once, orderbooks: once },
      });
      const accepted = () => sim.requests.filter((r) => r.accepted);
      const running = async () => (await db.sql`select 1 from prediction.ingest_runs where status = 'running'`).length > 0;
      // The client's window is 1.5 s (1 s and its margin): the clock moves a window at a time, and
      // each time the jobs together use its budget up and wait for the clock, until their runs end.
      clock.advanceToNextSecond();
      let windows = 1;
      await clock.until('the first window used up', () => accepted().length === 8);
      while (await running()) {
        clock.advance(1_500);
        windows++;
        await clock.until(
          `window ${windows} used up, or every run done`,
          async () => accepted().length === 8 * windows || !(await running()),
        );
      }
      await service.stop();

      const runs = await db.sql<{ job: string; requests: number }[]>`
        select job, requests from prediction.ingest_runs where job <> 'sync' order by job`;
      const sent = runs.reduce((n, r) => n + r.requests, 0);
      expect(accepted().length).toBe(sent);
      // Crawl and order books both sent, through one budget: 8 a window, the last window what was left.
      expect(runs.filter((r) => r.requests > 0).map((r) => r.job)).toEqual(expect.arrayContaining(['crawl', 'orderbooks']));
      const perWindow = Object.values(countBy(accepted(), (r) => String(r.timeMs)));
      const full = Math.floor(sent / 8);
      expect(perWindow).toEqual([...Array<number>(full).fill(8), ...(sent % 8 === 0 ? [] : [sent % 8])]);
      expect(sim.log.maxAcceptedInWindow(1_000)).toBe(8);
    } finally {
      await db.close();
    }
  });

  it('stops sending at once when stopped, and leaves its runs closed', async () => {
    const db = await createTestDatabase();
    try {
      sim.resetRequests();
      const clock = useClock();
      const { service } = await startTestService(sim, db.url, { rateLimit: { requests: 8, windowMs: 1_000 } });
      // The crawl sends the first 8 of its listings and waits for the rate window with the rest.
      clock.advanceToNextSecond();
      await clock.until('the rate budget used up', () => sim.requests.length === 8);
      await service.stop();
      // The window reopens and ticks come: a service still scheduling or sending would now send.
      clock.advance(3_000);
      await clock.realPause(250);
      expect(sim.requests.length).toBe(8);
      const runs = await db.sql`select job, status from prediction.ingest_runs order by run_id`;
      expect(runs.filter((r) => r.job === 'crawl').map((r) => r.status)).toEqual(['aborted']);
      expect(runs.filter((r) => r.status === 'running')).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
