/** The 'live' profile (the default) over real HTTP: each fact of docs/upstream/live-service.md the simulator plays. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { liveEventSchema, liveMarketSchema, liveOrderBookSchema } from '../../src/wire/liveShapes.js';
import { exactPaginationSchema } from '../../src/wire/pagination.js';
import { crawl, get } from './http.js';

const DOCUMENTED: readonly string[] = CONCRETE_CATEGORIES;
const REMOVED_EVENT_KEYS = ['multipleWinners', 'series', 'winner', 'isTrending', 'isRecommended', 'tvlDollars'];

let sim: Simulator;
/** Every listed event of both providers, with markets, as sent. */
let events: any[];
beforeAll(async () => {
  sim = await startSimulator({ seed: 1, markets: 600, apiKey: 'test-key', rateLimit: { requests: 1_000_000 } });
  events = [];
  for (const provider of KNOWN_PROVIDERS) events.push(...(await crawl(sim, `/events?provider=${provider}&includeMarkets=true`, 20)).items);
});
afterAll(() => sim.stop());

const markets = () => events.flatMap((e) => e.markets as any[]);
/** Several ids per kind of market, for detail requests. */
function sample(filter: (m: ReturnType<Simulator['world']['markets']>[number]) => boolean, n = 25): string[] {
  const ids = sim.world
    .markets()
    .filter(filter)
    .map((m) => m.marketId);
  expect(ids.length).toBeGreaterThan(0);
  return ids.slice(0, n);
}

describe("'live' profile: events", () => {
  it('is the default, and lists events without the removed keys, with tags, metadata and micro-USD volumes', () => {
    expect(sim.world.shape).toBe('live');
    expect(events.length).toBeGreaterThan(50);
    for (const e of events) {
      liveEventSchema.parse(e);
      for (const key of REMOVED_EVENT_KEYS) expect(e).not.toHaveProperty(key);
      // As recorded live: polymarket's events carry no provider; others' name theirs.
      const provider = sim.world.event(e.eventId)!.provider;
      if (provider === 'polymarket') expect(e).not.toHaveProperty('provider');
      else expect(e.provider).toBe(provider);
      expect(e.tags).toContain(e.category);
      expect(e.metadata.closeTime).toBe(
        new Date(Math.max(...sim.world.marketsOf(e.eventId).map((m) => m.closeTimeSec)) * 1000).toISOString(),
      );
      expect(Number(e.volume24hr)).toBeLessThanOrEqual(Number(e.volumeUsd));
    }
  });

  it('sends beginAt as null or Unix seconds, sometimes fractional, and subcategory sometimes ""', () => {
    const begins = events.map((e) => e.beginAt as string | null);
    expect(begins).toContain(null);
    expect(begins).toContainEqual(expect.stringMatching(/^\d+$/));
    expect(begins).toContainEqual(expect.stringMatching(/^\d+\.\d{1,3}$/));
    for (const e of events.filter((x) => x.beginAt !== null))
      expect(Math.floor(Number(e.beginAt))).toBe(sim.world.event(e.eventId)!.beginAtSec);
    expect(events.map((e) => e.subcategory)).toContain('');
  });

  it('has events in undocumented categories, listed unfiltered and under category=all, never under a documented filter', async () => {
    for (const provider of KNOWN_PROVIDERS) {
      const unfiltered = (await crawl(sim, `/events?provider=${provider}`, 20)).items;
      const all = (await crawl(sim, `/events?provider=${provider}&category=all`, 20)).items;
      expect(all.map((e) => e.eventId)).toEqual(unfiltered.map((e) => e.eventId));
      const undocumented = unfiltered.filter((e) => !DOCUMENTED.includes(e.category));
      expect(undocumented.length).toBeGreaterThan(0);
      expect(undocumented.length / unfiltered.length).toBeLessThan(0.2);
      const byFilter = new Set<string>();
      for (const category of CONCRETE_CATEGORIES) {
        for (const e of (await crawl(sim, `/events?provider=${provider}&category=${category}`, 20)).items) {
          expect(e.category).toBe(category);
          byFilter.add(e.eventId);
        }
      }
      // The documented filters see exactly the documented events: the others only unfiltered.
      expect(unfiltered.filter((e) => !byFilter.has(e.eventId)).map((e) => e.eventId)).toEqual(undocumented.map((e) => e.eventId));
    }
    expect(events.map((e) => e.category)).toContain('climate & science');
  });

  it('embeds markets when includeMarkets is absent; includeMarkets=false drops them', async () => {
    const r = await get(sim, '/events?start=0&end=3');
    for (const e of r.body.data) expect(e.markets.map((m: any) => m.marketId)).toEqual(sim.world.event(e.eventId)!.marketIds);
    const id = r.body.data[0].eventId;
    expect((await get(sim, `/events/${id}`)).body.markets).toHaveLength(sim.world.event(id)!.marketIds.length);
    expect((await get(sim, `/events/${id}?includeMarkets=false`)).body).not.toHaveProperty('markets');
  });

  it('search answers 10 events whatever the limit, embeds markets: [] and adds a pagination; suggested embeds the markets, without isRecommended', async () => {
    // live-facts: limit=2 returned 10 events, with end 10.
    const search = await get(sim, '/events/search?query=will&limit=2');
    expect(search.body.data).toHaveLength(10);
    for (const e of search.body.data) expect(liveEventSchema.parse(e).markets).toEqual([]);
    const pagination = exactPaginationSchema.parse(search.body.pagination);
    expect(pagination).toMatchObject({ start: 0, end: 10, hasNext: true });
    expect(pagination.total).toBe(sim.world.searchEvents('polymarket', 'will', Infinity).length);
    const suggested = await get(sim, '/events/suggested/SomePubkey111');
    expect(suggested.body).not.toHaveProperty('pagination');
    for (const e of suggested.body.data) {
      expect(liveEventSchema.parse(e).markets!.length).toBe(sim.world.event(e.eventId)!.marketIds.length);
      expect(e).not.toHaveProperty('isRecommended');
    }
  });
});

describe("'live' profile: providers", () => {
  it('takes bisonfi, as the live service has since 2026-07-02, with no event of it in this world', async () => {
    const listing = await get(sim, '/events?provider=bisonfi');
    expect(listing.status).toBe(200);
    expect(listing.body.data).toEqual([]);
  });
});

describe("'live' profile: markets and pricing", () => {
  it('markets are flat, without settlementTime; eventId only on /markets/{id}', async () => {
    expect(markets().length).toBeGreaterThan(100);
    for (const m of markets()) {
      liveMarketSchema.parse(m);
      expect(m).not.toHaveProperty('eventId');
      expect(m).not.toHaveProperty('metadata');
      expect(m).not.toHaveProperty('settlementTime');
    }
    for (const id of sample((m) => m.status === 'open')) {
      const m = liveMarketSchema.parse((await get(sim, `/markets/${id}`)).body);
      expect(m.eventId).toBe(sim.world.market(id)!.eventId);
      expect(m).toMatchObject({ status: 'open', result: null, resolveAt: null, marketResultPubkey: null });
    }
  });

  it('closed markets show four 0 prices; resolved ones a result, a base58 pubkey and an ISO resolveAt', async () => {
    for (const id of sample((m) => m.result !== null)) {
      const m = liveMarketSchema.parse((await get(sim, `/markets/${id}`)).body);
      const sim_ = sim.world.market(id)!;
      expect(m.status).toBe('closed');
      expect(m.result).toBe(sim_.result);
      expect(m.pricing).toMatchObject({ buyYesPriceUsd: 0, buyNoPriceUsd: 0, sellYesPriceUsd: 0, sellNoPriceUsd: 0 });
      expect(m.resolveAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.floor(Date.parse(m.resolveAt!) / 1000)).toBe(sim_.settlementTimeSec);
      expect(m.marketResultPubkey).not.toBeNull();
    }
    // Closed but not yet settled: no quote either, and nothing resolved yet.
    sim.world.closeMarket(sample((m) => m.status === 'open')[0]!);
    for (const id of sample((m) => m.status === 'closed' && m.result === null)) {
      const m = liveMarketSchema.parse((await get(sim, `/markets/${id}`)).body);
      expect(m).toMatchObject({
        result: null,
        resolveAt: null,
        pricing: { buyYesPriceUsd: 0, buyNoPriceUsd: 0, sellYesPriceUsd: 0, sellNoPriceUsd: 0 },
      });
    }
  });

  it('pricing.volume is whole dollars, on the scale of the event micro-USD volumeUsd', () => {
    let exact = 0;
    for (const e of events) {
      const dollars = (e.markets as any[]).reduce((sum, m) => sum + m.pricing.volume, 0);
      const micro = Number(e.volumeUsd);
      // Each market drops its own cents, so the event's total is at most $1 a market above the sum.
      expect(micro).toBeGreaterThanOrEqual(dollars * 1e6);
      expect(micro).toBeLessThan((dollars + e.markets.length) * 1e6);
      expect(micro % 1e6).toBe(0);
      if (e.markets.length === 1) {
        expect(micro).toBe(dollars * 1e6);
        exact++;
      }
    }
    expect(exact).toBeGreaterThan(0);
  });
});

describe("'live' profile: order books", () => {
  const toMicro = (dollars: string) => Math.round(Number(dollars) * 1e6);

  it('are bids ascending, not merged: cent prices repeat, dollar prices are distinct, sizes the same', async () => {
    const ids = sample((m) => m.status === 'open' && m.hasBook, 200);
    let collisions = 0;
    let fractional = 0;
    for (const id of ids) {
      const book = liveOrderBookSchema.parse((await get(sim, `/orderbook/${id}`)).body);
      for (const [cents, dollars] of [
        [book.yes, book.yes_dollars],
        [book.no, book.no_dollars],
      ] as const) {
        expect(cents.map(([, size]) => size)).toEqual(dollars.map(([, size]) => size));
        const micro = dollars.map(([p]) => toMicro(p));
        for (let i = 1; i < micro.length; i++) expect(micro[i]).toBeGreaterThan(micro[i - 1]!);
        expect(cents.map(([c]) => c)).toEqual(micro.map((p) => Math.round(p / 10_000)));
        if (new Set(cents.map(([c]) => c)).size < cents.length) collisions++;
        if (cents.some(([, size]) => !Number.isInteger(size))) fractional++;
      }
    }
    expect(collisions).toBeGreaterThan(10);
    expect(fractional).toBeGreaterThan(0);
  });

  it('the best bids are the market prices; an empty side goes with 0 / $1 edge prices', async () => {
    let emptyNo = 0;
    let emptyYes = 0;
    for (const id of sample((m) => m.status === 'open' && m.hasBook, 400)) {
      const book = liveOrderBookSchema.parse((await get(sim, `/orderbook/${id}`)).body);
      const { pricing } = liveMarketSchema.parse((await get(sim, `/markets/${id}`)).body);
      const bestYes = book.yes_dollars.at(-1);
      const bestNo = book.no_dollars.at(-1);
      expect(bestYes ? toMicro(bestYes[0]) : 0).toBe(pricing.sellYesPriceUsd);
      expect(bestNo ? 1e6 - toMicro(bestNo[0]) : 1e6).toBe(pricing.buyYesPriceUsd);
      expect(pricing.sellNoPriceUsd).toBe(1e6 - pricing.buyYesPriceUsd);
      if (!bestNo) emptyNo++;
      if (!bestYes) emptyYes++;
    }
    expect(emptyNo).toBeGreaterThan(0);
    expect(emptyYes).toBeGreaterThan(0);
  });

  it('closed markets have no book (null, as in the spec profile)', async () => {
    const id = sample((m) => m.status === 'closed')[0]!;
    expect((await get(sim, `/orderbook/${id}`)).text).toBe('null');
  });
});
