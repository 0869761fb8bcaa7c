import { describe, expect, it } from 'vitest';

import { dbContent, historyRowCounts } from '../helpers/dbContent.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';
import { useSyncHarness } from '../helpers/useSyncHarness.js';

const harness = useSyncHarness();

const listedEventIds = () =>
  harness.sim.world
    .events()
    .filter((e) => e.isActive)
    .map((e) => e.eventId)
    .sort();
const listedMarketIds = () =>
  harness.sim.world
    .events()
    .filter((e) => e.isActive)
    .flatMap((e) => e.marketIds)
    .sort();

describe('sync cycle', () => {
  it('stores every listed event and market exactly once, with its prices and book', async () => {
    const { sim, client, db } = harness;
    const result = await syncOnce(db.sql, client, sim);
    expect(result.status).toBe('succeeded');
    const events = await db.sql`select event_id from prediction.events order by event_id`;
    expect(events.map((e) => e.event_id)).toEqual(listedEventIds());
    const markets = await db.sql`select market_id from prediction.markets order by market_id`;
    expect(markets.map((m) => m.market_id)).toEqual(listedMarketIds());

    const someMarket = sim.world.market(listedMarketIds()[0]!)!;
    const [pricing] =
      await db.sql`select buy_yes_micro_usd, sell_yes_micro_usd from prediction.pricing_snapshots where market_id = ${someMarket.marketId}`;
    expect(pricing).toEqual({ buy_yes_micro_usd: String(someMarket.askMicroUsd), sell_yes_micro_usd: String(someMarket.bidMicroUsd) });

    const openMarkets = sim.world.markets().filter((m) => m.status === 'open' && listedMarketIds().includes(m.marketId));
    const [books] = await db.sql`select count(*)::int as n from prediction.orderbook_snapshots`;
    expect(books!.n).toBe(openMarkets.length);
    const [run] = await db.sql`select status, requests, records_rejected from prediction.ingest_runs where run_id = ${result.runId}`;
    expect(run).toMatchObject({ status: 'succeeded', requests: result.totals.requests, records_rejected: 0 });
  });

  it('adds no snapshot or history row when nothing changed upstream', async () => {
    const { sim, client, db } = harness;
    await syncOnce(db.sql, client, sim);
    const before = await historyRowCounts(db.sql);
    const again = await syncOnce(db.sql, client, sim);
    expect(await historyRowCounts(db.sql)).toEqual(before);
    expect(again.totals.recordsWritten).toBe(0);
  });

  it('records exactly the changes, including the resolution of markets whose event left the listing', async () => {
    const { db } = harness;
    // Work on a copy of the world's state so other tests keep theirs: a fresh simulator.
    const h = await startHarness({ seed: 11 });
    const c = h.newClient();
    try {
      await syncOnce(db.sql, c, h.sim);
      const before = await historyRowCounts(db.sql);
      const active = h.sim.world.events().filter((e) => e.isActive && e.marketIds.length >= 2);
      const delisted = active[0]!;
      const [m1, m2] = delisted.marketIds as [string, string];
      const priced = active[1]!.marketIds[0]!;
      h.sim.world.step(1);
      // An event leaves the listing and its markets close and resolve afterwards.
      h.sim.world.delistEvent(delisted.eventId);
      h.sim.world.closeMarket(m1);
      h.sim.world.resolveMarket(m1, 'yes');
      h.sim.world.closeMarket(m2);
      h.sim.world.resolveMarket(m2, 'no');
      h.sim.world.setPrice(priced, { buyYesPriceUsd: 810_000, sellYesPriceUsd: 790_000 });

      const result = await syncOnce(db.sql, c, h.sim);
      // The closed-events feed showed the delisted event whole: no detail request is left to make for it.
      expect(Object.keys(result.totals.requestsByStatus)).toContain('/events/closed');
      expect(Object.keys(result.totals.requestsByStatus)).not.toContain('/events/{eventId}');
      const after = await historyRowCounts(db.sql);
      expect(after.market_state_history - before.market_state_history).toBe(2);
      expect(after.pricing_snapshots - before.pricing_snapshots).toBeGreaterThanOrEqual(1);

      const states = await db.sql`select market_id, status, result, settlement_time, valid_to from prediction.market_state_history
        where market_id in (${m1}, ${m2}) order by market_id, valid_from`;
      const settled = (id: string) => new Date(h.sim.world.market(id)!.settlementTimeSec * 1000).toISOString();
      const expected = [
        [m1, 'open', null, null, false],
        [m1, 'closed', 'yes', settled(m1), true],
        [m2, 'open', null, null, false],
        [m2, 'closed', 'no', settled(m2), true],
      ];
      expect(states.map((s) => [s.market_id, s.status, s.result, s.settlement_time?.toISOString() ?? null, s.valid_to === null])).toEqual(
        m1 < m2 ? expected : [...expected.slice(2), ...expected.slice(0, 2)],
      );
      const prices =
        await db.sql`select buy_yes_micro_usd from prediction.pricing_snapshots where market_id = ${priced} order by observed_at`;
      expect(prices.at(-1)!.buy_yes_micro_usd).toBe('810000');
      // A fully settled market that left the listing is not fetched again.
      h.sim.resetRequests();
      await syncOnce(db.sql, c, h.sim);
      expect(h.sim.requests.filter((r) => r.path.includes(m1))).toEqual([]);
    } finally {
      await c.close();
      await h.sim.stop();
    }
  });

  it('quarantines malformed records and stores their valid neighbours', async () => {
    const { sim, client, db } = harness;
    sim.faults.set({ malformedRate: 0.1 });
    try {
      // 10 % unreadable is a degraded run (test/sync/liveSync.test.ts); this test is about the quarantine.
      const result = await syncOnce(db.sql, client, sim, { maxRejectedPercent: 100 });
      expect(result.status).toBe('succeeded');
      expect(result.totals.recordsRejected).toBeGreaterThan(0);
      const rejected = await db.sql`select endpoint, entity_id, reason, payload from prediction.rejected_records`;
      expect(rejected.length).toBe(result.totals.recordsRejected);
      // Each reason names the field that could not be read, then why.
      for (const r of rejected) expect(r.reason).toMatch(/^[A-Za-z][\w.[\]]*: \S/);
      // Every listed market is stored except those rejected themselves (under their id, or under
      // none when the id itself was unreadable) and those of rejected events.
      const rejectedIds = new Set(rejected.map((r) => r.entity_id as string));
      const withoutId = rejected.filter((r) => r.entity_id === null && r.endpoint.includes('markets')).length;
      // An event rejected for its id is quarantined under none: its markets, in its payload, are not stored either.
      const ofIdlessEvents = new Set(
        rejected
          .filter((r) => r.entity_id === null && !r.endpoint.includes('markets'))
          .flatMap((r) => ((r.payload as { markets?: { marketId: string }[] }).markets ?? []).map((m) => m.marketId)),
      );
      const stored = await db.sql<{ market_id: string }[]>`select market_id from prediction.markets order by market_id`;
      const expected = sim.world
        .events()
        .filter((e) => e.isActive && !rejectedIds.has(e.eventId))
        .flatMap((e) => e.marketIds)
        .filter((id) => !rejectedIds.has(id) && !ofIdlessEvents.has(id))
        .sort();
      const storedIds = stored.map((m) => m.market_id);
      expect(storedIds.filter((id) => !expected.includes(id))).toEqual([]);
      expect(expected.length - storedIds.length).toBe(withoutId);
    } finally {
      sim.faults.set({ malformedRate: 0 });
    }
  });

  it('accepts every drifted shape the upstream has used, records which it saw, and loses no field', async () => {
    const { sim, client, db } = harness;
    const reference = await createTestDatabase();
    try {
      await syncOnce(reference.sql, client, sim);
      sim.faults.set({ driftRate: 1 });
      const result = await syncOnce(db.sql, client, sim);
      expect(result.totals.recordsRejected).toBe(0);
      const tags = await db.sql`select distinct unnest(drift) as tag from prediction.markets
        union select distinct unnest(drift) from prediction.events order by 1`;
      expect(tags.map((t) => t.tag)).toEqual(expect.arrayContaining(['pricing_as_string', 'resolve_at', 'flattened_market']));
      // The spec's fields come out the same whichever shape carried them.
      const fields = (sql: typeof db.sql) => sql`select m.market_id, m.status, m.result, m.settlement_time, m.close_time, m.title,
        p.buy_yes_micro_usd, p.sell_no_micro_usd from prediction.markets m
        join prediction.pricing_snapshots p using (market_id) order by m.market_id`;
      expect(await fields(db.sql)).toEqual(await fields(reference.sql));
    } finally {
      sim.faults.set({ driftRate: 0 });
      await reference.close();
    }
  });

  it('ends with a complete database through 429 and 5xx storms', async () => {
    const { sim, client, db, newClient } = harness;
    const reference = await createTestDatabase();
    try {
      await syncOnce(reference.sql, client, sim);
      sim.faults.set({ errorRate: 0.2, rateLimitStormRate: 0.2, stormRetryAfterMs: 20 });
      const stormy = newClient();
      try {
        const result = await syncOnce(db.sql, stormy, sim);
        expect(result.status).toBe('succeeded');
        const statuses = Object.values(result.totals.requestsByStatus).flatMap((s) => Object.keys(s));
        expect(statuses).toEqual(expect.arrayContaining(['429']));
      } finally {
        sim.faults.set({ errorRate: 0, rateLimitStormRate: 0 });
        await stormy.close();
      }
      expect(await dbContent(db.sql)).toEqual(await dbContent(reference.sql));
    } finally {
      await reference.close();
    }
  });

  it('two syncs at once leave the same database as one', async () => {
    const { sim, client, db, newClient } = harness;
    const reference = await createTestDatabase();
    const other = newClient();
    try {
      await syncOnce(reference.sql, client, sim);
      await Promise.all([syncOnce(db.sql, client, sim), syncOnce(db.sql, other, sim)]);
      expect(await dbContent(db.sql)).toEqual(await dbContent(reference.sql));
    } finally {
      await other.close();
      await reference.close();
    }
  });
});
