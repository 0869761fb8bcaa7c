import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { Sql } from '../../src/db/connect.js';
import { CATEGORIES } from '../../src/domain/types.js';
import type { LiveMarket, LiveOrderBook, Simulator } from '../../src/simulator/index.js';
import { captureLogger, startTestService } from '../helpers/serviceHarness.js';
import { startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';
import { sample } from '../ops/promText.js';
import { type CronClock, installCronClock } from './cronClock.js';

/**
 * The scheduled service against the simulator speaking what the live service sends today, crawling
 * unfiltered (`all`): what it stores, and how a run that rejects too much shows in the run table,
 * the log, /metrics and /readyz, and clears again. On a fake clock (see cronClock.ts): the test
 * ticks, and each tick is done (its runs finished) before the test looks.
 */
let sim: Simulator;

beforeAll(async () => {
  ({ sim } = await startHarness({ shape: 'live', seed: 7, markets: 120, nowMs: () => Date.now() }));
});
afterAll(() => sim.stop());

const JOBS = ['crawl', 'details', 'orderbooks'] as const;

let clock: CronClock;
afterEach(() => clock.uninstall());
/** The fake clock, from the simulated world's start, and the service's tasks watched. */
async function startOnClock(...args: Parameters<typeof startTestService>) {
  clock = installCronClock(new Date(sim.world.nowSec * 1000));
  const started = await startTestService(...args);
  clock.watchNewTasks();
  return started;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

interface Readyz {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}
async function readyz(opsUrl: string): Promise<{ status: number; body: Readyz }> {
  const { status, text } = await get(`${opsUrl}/readyz`);
  return { status, body: JSON.parse(text) as Readyz };
}
const degradedGauge = async (opsUrl: string, job: string) =>
  sample((await get(`${opsUrl}/metrics`)).text, `prediction_job_degraded{job="${job}"}`);

/** Finished runs of the service's jobs, oldest first. */
const finishedRuns = (sql: Sql) =>
  sql<{ run_id: string; job: string; status: string; error: string | null; started_at: Date }[]>`
    select run_id::text, job, status, error, started_at from prediction.ingest_runs
    where job in ('crawl', 'details', 'orderbooks') and finished_at is not null order by started_at, run_id`;

const listedEvents = () => sim.world.events().filter((e) => e.isActive);
const listedMarketIds = () => listedEvents().flatMap((e) => e.marketIds);

describe('the service on the live shapes, crawling every category', () => {
  it('fills events of every category, markets, prices and books; its runs succeed, /readyz is 200 and nothing is degraded', async () => {
    const db = await createTestDatabase();
    const { logger, lines } = captureLogger();
    const { service } = await startOnClock(sim, db.url, { categories: ['all'], logger });
    let stopped = false;
    try {
      // Open markets whose book the sweep must store: a book, or "no book" (null) for the others.
      const open = listedMarketIds().filter((id) => sim.world.market(id)!.status === 'open');
      expect(open.length).toBeGreaterThan(0);
      await clock.tickUntil('two finished runs of each job and a book for every open market', async () => {
        const runs = await finishedRuns(db.sql);
        const [{ books }] =
          (await db.sql`select count(distinct market_id)::int as books from prediction.orderbook_snapshots`) as unknown as [
            { books: number },
          ];
        return JOBS.every((job) => runs.filter((r) => r.job === job).length >= 2) && books === open.length;
      });
      // Each tick is done when the test looks: what its runs did shows at once.
      const ready = await readyz(service.opsUrl);
      expect(ready.status).toBe(200);
      expect(ready.body.ready).toBe(true);
      for (const job of JOBS) expect(ready.body.checks[`job:${job}`]!.ok).toBe(true);
      for (const job of JOBS) expect(await degradedGauge(service.opsUrl, job)).toBe(0);

      const runs = await finishedRuns(db.sql);
      expect(runs.filter((r) => r.status !== 'succeeded')).toEqual([]);
      await service.stop();
      stopped = true;
      // A run cut off by the stop is aborted; nothing ever degraded or failed.
      const statuses = await db.sql`select distinct status from prediction.ingest_runs where job in ('crawl', 'details', 'orderbooks')`;
      expect(statuses.map((s) => s.status).filter((s) => s !== 'succeeded' && s !== 'aborted')).toEqual([]);
      expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);

      // Every listed event, in every category, the undocumented ones included.
      const events = await db.sql<
        { event_id: string; category: string }[]
      >`select event_id, category from prediction.events order by event_id`;
      expect(events.map((e) => e.event_id)).toEqual(
        listedEvents()
          .map((e) => e.eventId)
          .sort(),
      );
      expect(events.map((e) => e.category)).toEqual(events.map((e) => sim.world.event(e.event_id)!.category));
      const undocumented = new Set(events.map((e) => e.category).filter((c) => !(CATEGORIES as readonly string[]).includes(c)));
      expect([...undocumented].sort()).toEqual(
        [...new Set(listedEvents().map((e) => e.category as string))].filter((c) => !(CATEGORIES as readonly string[]).includes(c)).sort(),
      );
      expect(undocumented.size).toBeGreaterThan(0);

      // Every listed market, with the prices it was sent (micro-USD as received; a closed market's four zeros are no quote).
      const markets = await db.sql<
        { market_id: string; status: string }[]
      >`select market_id, status from prediction.markets order by market_id`;
      expect(markets.map((m) => m.market_id)).toEqual([...listedMarketIds()].sort());
      expect(markets.map((m) => m.status)).toEqual(markets.map((m) => sim.world.market(m.market_id)!.status));
      const prices = await db.sql`
        select distinct on (market_id) market_id, buy_yes_micro_usd::text as buy_yes, sell_yes_micro_usd::text as sell_yes,
          buy_no_micro_usd::text as buy_no, sell_no_micro_usd::text as sell_no, volume::text as volume
        from prediction.pricing_snapshots order by market_id, observed_at desc`;
      expect(prices.map((p) => p.market_id)).toEqual(markets.map((m) => m.market_id));
      for (const p of prices) {
        const wire = (sim.world.marketBody(p.market_id as string, { detail: false }) as LiveMarket).pricing;
        const closed = sim.world.market(p.market_id as string)!.status === 'closed';
        const price = (v: number) => (closed ? null : String(v));
        expect({ id: p.market_id, buyYes: p.buy_yes, sellYes: p.sell_yes, buyNo: p.buy_no, sellNo: p.sell_no, volume: p.volume }).toEqual({
          id: p.market_id,
          buyYes: price(wire.buyYesPriceUsd),
          sellYes: price(wire.sellYesPriceUsd),
          buyNo: price(wire.buyNoPriceUsd),
          sellNo: price(wire.sellNoPriceUsd),
          volume: String(wire.volume),
        });
      }

      // Every open market's book: its exact dollar levels (distinct prices per side), or a null book where it has none.
      const books = await db.sql<{ market_id: string; is_null: boolean; yes_levels: number; no_levels: number }[]>`
        select distinct on (market_id) market_id, is_null, yes_levels, no_levels
        from prediction.orderbook_snapshots order by market_id, observed_at desc`;
      expect(books.map((b) => b.market_id)).toEqual([...open].sort());
      let withBook = 0;
      for (const b of books) {
        const wire = sim.world.orderBookBody(b.market_id) as LiveOrderBook | null;
        const distinct = (levels: [string, number][]) => new Set(levels.map(([price]) => Number(price))).size;
        expect({ id: b.market_id, isNull: b.is_null, yes: b.yes_levels, no: b.no_levels }).toEqual({
          id: b.market_id,
          isNull: wire === null,
          yes: wire === null ? 0 : distinct(wire.yes_dollars),
          no: wire === null ? 0 : distinct(wire.no_dollars),
        });
        if (wire !== null) withBook++;
      }
      expect(withBook).toBeGreaterThan(0);
    } finally {
      if (!stopped) await service.stop();
      await db.close();
    }
  });

  it('a crawl that rejects most of what it reads is degraded: logged at error, gauge 1, /readyz 503 naming it; all clear again after a clean crawl', async () => {
    const db = await createTestDatabase();
    const { logger, lines } = captureLogger();
    const { service } = await startOnClock(sim, db.url, { categories: ['all'], logger });
    try {
      await clock.tickUntil('a first successful crawl', async () =>
        (await finishedRuns(db.sql)).some((r) => r.job === 'crawl' && r.status === 'succeeded'),
      );
      expect(await degradedGauge(service.opsUrl, 'crawl')).toBe(0);

      sim.faults.set({ malformedRate: 0.6 });
      const faultAt = new Date();
      const degraded = await clock.tickUntil('a degraded crawl started after the fault', async () =>
        (await finishedRuns(db.sql)).find((r) => r.job === 'crawl' && r.started_at > faultAt),
      );
      // The first crawl that read the malformed listings is degraded, with the reason in error.
      expect(degraded.status).toBe('degraded');
      expect(degraded.error).toMatch(/^rejected \d+ of \d+ records \(\d+\.\d %, more than 5 %\); .*most common reasons: .+ \(\d+\)/);

      // Its log line: error level, "job degraded: <reason>", naming the job and the run.
      const line = lines.find((l) => l.runId === Number(degraded.run_id));
      expect(line).toMatchObject({ level: 'error', job: 'crawl', status: 'degraded', msg: `job degraded: ${degraded.error}` });
      expect(line!.msg).toMatch(/^job degraded:/);

      // While the upstream stays malformed every crawl is degraded: gauge 1, and /readyz fails the crawl's check with the reason.
      expect(await degradedGauge(service.opsUrl, 'crawl')).toBe(1);
      const notReady = await readyz(service.opsUrl);
      expect(notReady.status).toBe(503);
      expect(notReady.body.ready).toBe(false);
      expect(notReady.body.checks['job:crawl']!.ok).toBe(false);
      expect(notReady.body.checks['job:crawl']!.detail).toMatch(
        /^latest run degraded: rejected \d+ of \d+ records .*most common reasons: /,
      );
      expect(notReady.body.checks.database).toEqual({ ok: true });

      sim.faults.set({ malformedRate: 0 });
      const clearedAt = new Date();
      const clean = await clock.tickUntil('a crawl started after the upstream recovered', async () =>
        (await finishedRuns(db.sql)).find((r) => r.job === 'crawl' && r.started_at > clearedAt),
      );
      expect([clean.status, clean.error]).toEqual(['succeeded', null]);
      expect(await degradedGauge(service.opsUrl, 'crawl')).toBe(0);
      const ready = await readyz(service.opsUrl);
      expect(ready.status).toBe(200);
      expect(ready.body.checks['job:crawl']!.ok).toBe(true);
      expect(ready.body.checks['job:crawl']!.detail).toMatch(/^last success \d+[smh]( \d+[sm])? ago/);
    } finally {
      sim.faults.set({ malformedRate: 0 });
      await service.stop();
      await db.close();
    }
  });
});
