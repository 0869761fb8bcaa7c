import { describe, expect, it } from 'vitest';

import { CLOSED_FEED_OVERLAP_SEC } from '../../src/sync/readClosedFeed.js';
import { historyRowCounts } from '../helpers/dbContent.js';
import { syncOnce } from '../helpers/syncHarness.js';
import { useSyncHarness } from '../helpers/useSyncHarness.js';

/**
 * GET /events/closed read by every sync: an event that opened and ended between two syncs is
 * stored with its results, the feed resumes from its watermark, and reading the overlap again
 * writes no history twice.
 */
// Today's shapes, and settlements within minutes of a close, as the 5-minute markets have.
const harness = useSyncHarness({ shape: 'live', seed: 31, markets: 120, settlementLagSec: [30, 90] });

const closedRequests = () =>
  harness.sim.requests.filter((r) => r.path.endsWith('/events/closed')).map((r) => Object.fromEntries(new URLSearchParams(r.query)));

describe('the closed-events feed', () => {
  it('stores an event that opened and ended between two syncs, with its result and settlement time', async () => {
    const { sim, client, db } = harness;
    await syncOnce(db.sql, client, sim);
    sim.world.step(60);
    const eventId = sim.world.addEvent({ provider: 'polymarket', category: 'crypto', durationSec: 300, marketCount: 1 });
    const [marketId] = sim.world.event(eventId)!.marketIds as [string];
    sim.world.step(600);
    const market = sim.world.market(marketId)!;
    expect(market.result).not.toBeNull(); // it opened, closed and settled while no sync ran
    expect(sim.world.event(eventId)!.isActive).toBe(false); // so no listing can show it any more

    sim.resetRequests();
    await syncOnce(db.sql, client, sim);
    const [event] = await db.sql`select event_id, is_active, winner, provider from prediction.events where event_id = ${eventId}`;
    expect(event).toMatchObject({ event_id: eventId, is_active: false, provider: 'polymarket' });
    const [stored] = await db.sql`select status, result, settlement_time, close_time from prediction.markets where market_id = ${marketId}`;
    expect(stored).toMatchObject({ status: 'closed', result: market.result });
    expect(Math.floor((stored!.settlement_time as Date).getTime() / 1000)).toBe(market.settlementTimeSec);
    const history = await db.sql`select status, result from prediction.market_state_history where market_id = ${marketId}`;
    expect(history).toEqual([{ status: 'closed', result: market.result }]);
    // Nothing else told the sync about it: no detail request named it.
    expect(sim.requests.filter((r) => r.path.includes(eventId) || r.path.includes(marketId))).toEqual([]);

    // Settled whole, it is final though no winner is sent: once past the feed's overlap, later
    // syncs do not fetch it again.
    sim.world.step(600);
    await syncOnce(db.sql, client, sim);
    sim.world.step(600);
    sim.resetRequests();
    await syncOnce(db.sql, client, sim);
    expect(sim.requests.filter((r) => r.path.includes(eventId) || r.path.includes(marketId))).toEqual([]);
  });

  it('resumes from the watermark (the last read’s timestamp minus the overlap), and the overlap writes no history twice', async () => {
    const { sim, client, db } = harness;
    await syncOnce(db.sql, client, sim);
    const firstReadAtSec = sim.world.nowSec;
    const [mark] = await db.sql`select provider, read_through from prediction.closed_feed_watermarks where provider = 'polymarket'`;
    expect((mark!.read_through as Date).getTime()).toBe(firstReadAtSec * 1000);

    // An event ends within the overlap, read by the first sync and again by the next.
    const eventId = sim.world.addEvent({ provider: 'polymarket', category: 'crypto', durationSec: 30, marketCount: 1 });
    sim.world.step(200);
    await syncOnce(db.sql, client, sim);
    const before = await historyRowCounts(db.sql);

    sim.world.step(10);
    sim.resetRequests();
    const again = await syncOnce(db.sql, client, sim);
    const asked = closedRequests().filter((q) => q.provider === 'polymarket');
    expect(asked.length).toBeGreaterThan(0);
    expect(Number(asked[0]!.since)).toBe(firstReadAtSec + 200 - CLOSED_FEED_OVERLAP_SEC);
    // The feed answered the event again (it changed within the overlap) and nothing new was written.
    expect(sim.world.closedEvents('polymarket', Number(asked[0]!.since)).map((e) => e.eventId)).toContain(eventId);
    expect(await historyRowCounts(db.sql)).toEqual(before);
    expect(again.totals.recordsWritten).toBe(0);
  });

  it('does not move the watermark when a read is cut short, so the next one reads the same span', async () => {
    const { sim, client, db } = harness;
    await syncOnce(db.sql, client, sim);
    const [mark] = await db.sql`select read_through from prediction.closed_feed_watermarks where provider = 'kalshi'`;
    sim.world.step(120);
    const stop = new AbortController();
    // Stops the run as soon as the feed is asked for: no page of it is written.
    const aborting = client.observedBy((e) => {
      if (e.endpoint === '/events/closed') stop.abort();
    });
    await syncOnce(db.sql, aborting, sim, { signal: stop.signal });
    const [after] = await db.sql`select read_through from prediction.closed_feed_watermarks where provider = 'kalshi'`;
    expect(after!.read_through).toEqual(mark!.read_through);
  });
});
