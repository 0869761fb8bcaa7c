import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { dbContent } from '../helpers/dbContent.js';
import { runIntervals, startTestService } from '../helpers/serviceHarness.js';
import { referenceSync, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;

beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 21, markets: 120, faults: { latencyMs: 2 } }));
});
afterAll(() => sim.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduled service', () => {
  it('two instances on one database: one run per tick, jobs never overlap, no duplicate rows', async () => {
    const db = await createTestDatabase();
    const reference = await createTestDatabase();
    try {
      const a = await startTestService(sim, db.url);
      const b = await startTestService(sim, db.url);
      await sleep(4_500);
      await Promise.all([a.service.stop(), b.service.stop()]);

      const ticks = await db.sql`select job, tick_at, count(*)::int as n, count(distinct instance_id)::int as instances
        from prediction.job_ticks group by job, tick_at`;
      expect(ticks.length).toBeGreaterThan(3);
      expect(ticks.every((t) => t.n === 1)).toBe(true);
      const claimedBy = await db.sql`select distinct instance_id from prediction.job_ticks`;
      expect(claimedBy.length).toBe(2);

      // No two runs of one job overlap in time, whichever instance ran them.
      const runs = await runIntervals(db.sql);
      expect(runs.some((r) => r.job === 'crawl' && r.status === 'succeeded')).toBe(true);
      for (let i = 1; i < runs.length; i++) {
        const [prev, cur] = [runs[i - 1]!, runs[i]!];
        if (prev.job === cur.job) expect(cur.started_at.getTime()).toBeGreaterThanOrEqual(prev.finished_at!.getTime());
      }
      // Each run belongs to one claimed tick: never more runs than ticks.
      const perJob = (rows: { job: string }[], job: string) => rows.filter((r) => r.job === job).length;
      for (const job of ['crawl', 'details', 'orderbooks']) expect(perJob(runs, job)).toBeLessThanOrEqual(perJob(ticks as never, job));

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
      sim.resetRequests();
      const { service } = await startTestService(sim, db.url, { rateLimit: { requests: 8, windowMs: 1_000 } });
      await sleep(4_000);
      await service.stop();
      // The client's window, measured at the server: the jobs together used the whole budget of
      // some 1 s window, and no window saw more. (A count over the 4 s depended on CI load.)
      expect(sim.log.maxAcceptedInWindow(1_000)).toBe(8);
      const endpoints = new Set(sim.requests.map((r) => r.path.split('/').slice(0, 4).join('/')));
      expect(endpoints.size).toBeGreaterThan(1);
    } finally {
      await db.close();
    }
  });

  it('stops sending at once when stopped, and leaves its runs closed', async () => {
    const db = await createTestDatabase();
    try {
      const { service } = await startTestService(sim, db.url);
      await sleep(2_000);
      await service.stop();
      const stoppedAt = Date.now();
      const seen = sim.requests.length;
      await sleep(1_500);
      expect(sim.requests.length).toBe(seen);
      expect(sim.requests.filter((r) => r.timeMs > stoppedAt)).toEqual([]);
      const open = await db.sql`select run_id from prediction.ingest_runs where status = 'running'`;
      expect(open).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
