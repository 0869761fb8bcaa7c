import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WORLD } from '../../src/cli/commands/demo.js';
import { runDemo, type DemoRun } from '../helpers/demoRun.js';
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
