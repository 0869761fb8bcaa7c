import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { jobWork } from '../../src/service/jobKinds.js';
import type { Simulator } from '../../src/simulator/index.js';
import { selectBookCandidates } from '../../src/sql/targets/selectBookCandidates.js';
import { readHotListings } from '../../src/sync/readHotListings.js';
import { sweepContext } from '../helpers/sweepContext.js';
import { API_KEY, startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;

beforeAll(async () => {
  ({ sim } = await startHarness({ shape: 'live', markets: 120, seed: 11 }));
  // Pages of 5 events: the busiest page is a small part of the listing.
  client = createPredictionClient({
    baseUrl: sim.url,
    apiKey: API_KEY,
    rateLimit: { requests: 1_000_000, windowMs: 60_000 },
    listingPageSize: 5,
  });
});
afterAll(async () => {
  await client?.close();
  await sim?.stop();
});

/** The events of the busiest-first listing, as the simulator ranks them. */
function busiestEvents(provider: 'polymarket' | 'kalshi') {
  return sim.world.listEvents({ provider, category: 'all', sortBy: 'volume24hr', sortDirection: 'desc' });
}

const pricingRows = async (marketId: string) =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.pricing_snapshots where market_id = ${marketId}`)[0]!.n;

describe('the busiest events read before a sweep', () => {
  it('store the moved prices of the busiest markets only, so their books are due first; the rest of the listing is left to the crawl', async () => {
    // One clock for every observation, the sweep's deadline's: the wall clock.
    const now = () => new Date();
    await syncOnce(db.sql, client, sim, { categories: ['all'], now });

    // One market among the busiest events, one far down the listing: both move.
    const hot = busiestEvents('polymarket');
    const hotMarket = sim.world.marketsOf(hot[0]!.eventId).find((m) => m.status === 'open')!.marketId;
    const coldEvent = hot.at(-1)!;
    const coldMarket = sim.world.marketsOf(coldEvent.eventId).find((m) => m.status === 'open')!.marketId;
    sim.world.step(30);
    for (const id of [hotMarket, coldMarket]) sim.world.setPrice(id, { buyYesPriceUsd: 910_000, sellYesPriceUsd: 890_000 });
    const before = { hot: await pricingRows(hotMarket), cold: await pricingRows(coldMarket) };
    const totalBefore = (await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.pricing_snapshots`)[0]!.n;

    const seq = sim.requests.length;
    const ctx = await sweepContext(db.sql, client, { providers: KNOWN_PROVIDERS, now });
    const { pages, marketIds } = await readHotListings(ctx, 5);

    // One page a provider, busiest first, with every market of each event.
    const sent = sim.requests.slice(seq);
    expect(pages).toBe(KNOWN_PROVIDERS.length);
    expect(sent).toHaveLength(KNOWN_PROVIDERS.length);
    expect(marketIds).toContain(hotMarket);
    expect(marketIds).not.toContain(coldMarket);
    for (const r of sent) {
      const q = new URLSearchParams(r.query);
      expect(r.path.endsWith('/events')).toBe(true);
      expect([q.get('sortBy'), q.get('sortDirection'), q.get('includeMarkets'), q.get('includeAllMarkets')]).toEqual([
        'volume24hr',
        'desc',
        'true',
        'true',
      ]);
    }
    // Change-only: the moved hot market gained a price row; no unmoved market did; the cold one waits for the crawl.
    expect(await pricingRows(hotMarket)).toBe(before.hot + 1);
    expect(await pricingRows(coldMarket)).toBe(before.cold);
    const totalAfter = (await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.pricing_snapshots`)[0]!.n;
    expect(totalAfter - totalBefore).toBeLessThanOrEqual(5 * KNOWN_PROVIDERS.length * 10);

    const candidates = await selectBookCandidates(db.sql, KNOWN_PROVIDERS, now());
    const moved = new Set(candidates.filter((c) => c.listedMovedAtMs !== null).map((c) => c.marketId));
    expect(moved.has(hotMarket)).toBe(true);
    expect(moved.has(coldMarket)).toBe(false);
  });

  it('are read by the sweep job alongside its books when set, the moved book fetched after they answer; not at all when 0', async () => {
    const now = () => new Date();
    const hotMarket = sim.world.marketsOf(busiestEvents('polymarket')[0]!.eventId).find((m) => m.status === 'open')!.marketId;
    const sweepOnce = async (hotEvents: number) => {
      const seq = sim.requests.length;
      const ctx = await sweepContext(db.sql, client, { providers: KNOWN_PROVIDERS, now });
      await jobWork('orderbooks', { orderBookMaxAgeSec: 3600, maxRejectedPercent: 5, rateLimitRpm: 600, hotEvents })(
        ctx,
        new Date(Date.now() + 3_000),
      );
      return sim.requests.slice(seq);
    };
    const off = await sweepOnce(0);
    expect(off.some((r) => r.path.endsWith('/events'))).toBe(false);
    expect(off.some((r) => r.path.includes('/orderbook/'))).toBe(true);

    sim.world.step(30);
    sim.world.setPrice(hotMarket, { buyYesPriceUsd: 610_000, sellYesPriceUsd: 590_000 });
    const before = await pricingRows(hotMarket);
    const on = await sweepOnce(5);
    const listings = on.filter((r) => r.path.endsWith('/events'));
    expect(listings).toHaveLength(KNOWN_PROVIDERS.length);
    expect(listings.every((r) => new URLSearchParams(r.query).get('sortBy') === 'volume24hr')).toBe(true);
    expect(await pricingRows(hotMarket)).toBe(before + 1);
    const answeredMs = Math.max(...listings.map((r) => r.finishedMs!));
    const bookOf = (r: (typeof on)[number]) => decodeURIComponent(r.path.slice(r.path.lastIndexOf('/') + 1));
    expect(on.some((r) => r.path.includes('/orderbook/') && r.timeMs >= answeredMs && bookOf(r) === hotMarket)).toBe(true);
  });
});
