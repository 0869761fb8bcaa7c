import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO_WORLD } from '../../src/cli/commands/demo.js';
import { World } from '../../src/simulator/World.js';
import { type DemoRun, runDemo } from '../helpers/demoRun.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let run: DemoRun;

beforeAll(async () => {
  run = await runDemo(db.sql, 3, { markets: 100 });
}, 120_000);
afterAll(() => run?.sim.stop());

describe('the demo world at its speed-up, through sync', () => {
  it('closes and settles markets in its first minutes', async () => {
    const [counts] = await db.sql<{ closed: number; settled: number; seen_pending: number }[]>`
      select count(*) filter (where closed_first_observed_at is not null)::int as closed,
             count(*) filter (where settled_first_observed_at is not null
                              and closed_first_observed_at < settled_first_observed_at)::int as seen_pending,
             count(*) filter (where is_settled and settled_first_observed_at > ${new Date(run.endMs - 3 * 60_000)})::int as settled
        from analytics.market_resolutions`;
    // The early closes are whole events: at least one market each.
    expect(counts!.closed).toBeGreaterThanOrEqual(DEMO_WORLD.earlyCloses.events);
    expect(counts!.settled).toBeGreaterThan(0);
    expect(counts!.seen_pending).toBeGreaterThan(0);
  });

  it('serves no close, settlement or trade dated after the poll that saw it', async () => {
    const late = await db.sql`
      select market_id, close_time, closed_first_observed_at, settlement_time, settled_first_observed_at
        from analytics.market_resolutions
       where close_time > closed_first_observed_at or settlement_time > settled_first_observed_at`;
    expect(late).toEqual([]);
    const futureTrades = await db.sql`select trade_id, traded_at from prediction.trades where traded_at > ${new Date(run.endMs)}`;
    expect(futureTrades).toEqual([]);
    const [counted] = await db.sql<{ trades: number }[]>`select count(*)::int as trades from prediction.trades`;
    expect(counted!.trades).toBeGreaterThan(0);
  });

  it('gives no negative settlement lag', async () => {
    const negative = await db.sql`
      select market_id, settlement_lag_seconds, observed_settlement_lag_min_seconds, observed_settlement_lag_max_seconds
        from analytics.market_resolutions
       where (settlement_lag_seconds < 0 or observed_settlement_lag_min_seconds < 0 or observed_settlement_lag_max_seconds < 0)`;
    expect(negative).toEqual([]);
  });
});

describe('a world served at a speed-up', () => {
  const startSec = 1_900_000_000;
  const world = () =>
    new World({ seed: 3, markets: 60, shape: 'live', startSec, servedSpeed: 60, earlyCloses: { events: 4, withinSec: 3600 } });

  it('serves each instant as the real one at which the world reaches it, and maps a served `since` back', () => {
    const w = world();
    w.step(3600);
    const closed = w.markets().filter((m) => m.status === 'closed' && m.closeTimeSec > startSec);
    expect(closed.length).toBeGreaterThanOrEqual(4);
    for (const m of closed) {
      const body = w.marketBody(m.marketId) as { closeTime: number };
      expect(body.closeTime).toBe(Math.floor(startSec + (m.closeTimeSec - startSec) / 60));
      // An hour of the world is a minute of the wall clock.
      expect(body.closeTime).toBeLessThanOrEqual(startSec + 60);
    }
    expect(w.servedSec(w.nowSec)).toBe(startSec + 60);
    expect(w.simSecOfServed(startSec + 30)).toBe(startSec + 1800);
  });

  it('brings the early closes into the first `withinSec`, leaving the world without them as it was', () => {
    const early = world();
    const plain = new World({ seed: 3, markets: 60, shape: 'live', startSec });
    const moved = early.markets().filter((m) => m.closeTimeSec !== plain.market(m.marketId)!.closeTimeSec);
    expect(new Set(moved.map((m) => m.eventId)).size).toBe(4);
    expect(moved.every((m) => m.closeTimeSec > startSec && m.closeTimeSec <= startSec + 3600)).toBe(true);
    expect(early.markets().map((m) => m.marketId)).toEqual(plain.markets().map((m) => m.marketId));
    expect(() => new World({ earlyCloses: { events: 0, withinSec: 60 } })).toThrow(/earlyCloses.events/);
  });
});
