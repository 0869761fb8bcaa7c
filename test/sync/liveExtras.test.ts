import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/**
 * The simulator speaks what the service's OpenAPI of 2026-07-05 describes: 5-minute up-or-down
 * events that start and end between two syncs, gx markets with a `draw` result and a live score,
 * bisonfi markets, one-sided markets, suffixed ids and the categories the service added. A sync
 * stores every one of them, nothing quarantined.
 */
let sim: Simulator;
let client: PredictionClient;
let db: TestDatabase;

beforeAll(async () => {
  let newClient: () => PredictionClient;
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 41, markets: 60, upDownEverySec: 600, settlementLagSec: [60, 120] }));
  client = newClient();
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
  await client.close();
  await sim.stop();
});

const providers = ['kalshi', 'polymarket', 'bisonfi'];

describe('the simulator’s live extras, synced', () => {
  it('stores the up-or-down events that opened and ended between two syncs, with their results', async () => {
    await syncOnce(db.sql, client, sim, { providers, categories: ['all'], maxOrderBooks: 0 });
    // Up-or-down events open at 600 s and 1,200 s, each closing 300 s and settling 40 s later.
    const report = sim.world.step(1700);
    const upDown = report.addedEventIds.filter((id) => sim.world.marketsOf(id).every((m) => m.marketId === `${id}-0`));
    expect(upDown).toHaveLength(2);
    for (const id of upDown) expect(sim.world.market(`${id}-0`)!.result).not.toBeNull();

    const run = await syncOnce(db.sql, client, sim, { providers, categories: ['all'], maxOrderBooks: 0 });
    expect(run.totals.recordsRejected).toBe(0);
    const rows = await db.sql`select market_id, result, raw->'outcomes' as outcomes from prediction.markets
      where market_id = any(${upDown.map((id) => `${id}-0`)}) order by market_id collate "C"`;
    expect(rows.map((r) => [r.market_id, r.result, r.outcomes])).toEqual(
      upDown
        .map((id) => [`${id}-0`, sim.world.market(`${id}-0`)!.result, ['Up', 'Down']])
        .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
  });

  it('stores gx markets with a draw, bisonfi markets, a one-sided market and the added categories, nothing quarantined', async () => {
    const drawn = sim.world.addGxEvent({ draw: true, durationSec: 600 });
    const forecast = sim.world.addBisonfiEvent(600);
    const open = sim.world.addUpDownEvent(3600);
    const categories = (['finance', 'climate & science', 'weather', 'mentions'] as const).map((c) => sim.world.addCategoryEvent(c));
    sim.world.step(900);
    const counted = await client.getEventCategories({ provider: 'polymarket' });
    expect(counted.categories.map((c) => c.category)).toEqual(
      expect.arrayContaining(['finance', 'weather', 'mentions', 'climate & science']),
    );

    const run = await syncOnce(db.sql, client, sim, { providers, categories: ['all'], maxOrderBooks: 0 });
    expect(run.totals.recordsRejected).toBe(0);
    expect(await db.sql`select entity_id from prediction.rejected_records`).toEqual([]);

    const [drawMarket] = sim.world.marketsOf(drawn);
    const [stored] = await db.sql`select result, raw->>'provider' as wire_provider, raw->>'gxMarketId' as gx from prediction.markets
      where market_id = ${drawMarket!.marketId}`;
    expect(stored).toMatchObject({ result: 'draw', wire_provider: 'gx' });
    expect(stored!.gx).toMatch(/^\d+$/);
    const [score] =
      await db.sql`select raw->'liveScore'->>'score' as score, raw->'liveScore'->>'ended' as ended from prediction.events where event_id = ${drawn}`;
    expect(score).toEqual({ score: '1-1', ended: 'true' });

    const sides = await db.sql`select market_id, provider, result, raw->>'lifecycleStatus' as lifecycle from prediction.markets
      where event_id = ${forecast} order by market_id collate "C"`;
    expect(sides.map((s) => [s.market_id, s.provider])).toEqual([
      [`${forecast}-DOWN`, 'bisonfi'],
      [`${forecast}-UP`, 'bisonfi'],
    ]);
    for (const s of sides) expect(s.lifecycle).toBe(s.result === null ? 'resolving' : 'settled');

    const [oneSided] =
      await db.sql`select buy_no_micro_usd::text as buy_no, sell_no_micro_usd::text as sell_no, buy_yes_micro_usd::text as buy_yes
      from prediction.pricing_snapshots where market_id = ${`${open}-0`} order by observed_at desc limit 1`;
    expect(oneSided).toEqual({ buy_no: '0', sell_no: '0', buy_yes: '520000' });

    const inCategories = await db.sql`select category from prediction.events where event_id = any(${categories}) order by category`;
    expect(inCategories.map((r) => r.category)).toEqual(['climate & science', 'finance', 'mentions', 'weather']);
  });
});
