import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { CATEGORIES } from '../../src/domain/types.js';
import type { LiveEvent, LiveMarket, LiveOrderBook, LivePricing, Simulator } from '../../src/simulator/index.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * The analytics surface over data synced from the simulator's live profile, checked against the
 * simulator's own world: one sync, a few simulated days, another sync. The world only moves with
 * `step`, so what each sync read is captured just before it, and every expectation is exact.
 */
const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;

const DAY_SEC = 86_400;
const DOCUMENTED: readonly string[] = CATEGORIES;

/** What the world sent at one instant: event, market and book bodies as the live profile renders them, deep-copied. */
interface Capture {
  atMs: number;
  events: Map<string, { body: LiveEvent; isActive: boolean; provider: string; category: string; marketIds: string[] }>;
  markets: Map<string, { body: LiveMarket; status: 'open' | 'closed'; result: 'yes' | 'no' | null; book: LiveOrderBook | null }>;
}

function capture(): Capture {
  const copy = <T>(v: T): T => structuredClone(v);
  const events: Capture['events'] = new Map();
  for (const e of sim.world.events()) {
    const body = copy(sim.world.eventBody(e.eventId, { includeMarkets: false }) as LiveEvent);
    events.set(e.eventId, { body, isActive: e.isActive, provider: e.provider, category: e.category, marketIds: [...e.marketIds] });
  }
  const markets: Capture['markets'] = new Map();
  for (const m of sim.world.markets()) {
    const body = copy(sim.world.marketBody(m.marketId, { detail: false }) as LiveMarket);
    markets.set(m.marketId, {
      body,
      status: m.status,
      result: m.result,
      book: copy(sim.world.orderBookBody(m.marketId) as LiveOrderBook | null),
    });
  }
  return { atMs: sim.world.nowSec * 1000, events, markets };
}

let first: Capture;
let second: Capture;
/** The capture of the sync that observed at `at` (each sync observes at one instant, the simulator's clock). */
const at = (when: Date | null): Capture => {
  const ms = when?.getTime();
  if (ms === first.atMs) return first;
  if (ms === second.atMs) return second;
  throw new Error(`no sync observed at ${when?.toISOString()}`);
};

beforeAll(async () => {
  let newClient: () => PredictionClient;
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 43, markets: 150 }));
  client = newClient();
  first = capture();
  expect((await syncOnce(db.sql, client, sim, { categories: ['all'] })).status).toBe('succeeded');
  sim.world.step(3 * DAY_SEC);
  second = capture();
  expect((await syncOnce(db.sql, client, sim, { categories: ['all'] })).status).toBe('succeeded');
});
afterAll(async () => {
  await client?.close();
  await sim?.stop();
});

/** Exact decimal text without trailing zeros ('0.650000' -> '0.65', '64.50' -> '64.5', '12.0' -> '12'); null stays null. */
function dec(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
/** `units` / 10^`scale` as exact decimal text (units an integer). */
function fixed(units: number, scale: number): string {
  const neg = units < 0;
  const digits = String(Math.abs(units)).padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return `${neg ? '-' : ''}${dec(text)}`;
}

/**
 * The YES quote analytics must derive from the live prices (docs/queries.md, "Edge prices"), in
 * micro-USD: a sell price of 0 is no bid, a buy price of 1,000,000 (or 0) no ask, and a closed
 * market's four zeros no quote at all (stored as nulls).
 */
function expectedQuote(p: LivePricing, status: string) {
  const noQuote = status !== 'open' && [p.buyYesPriceUsd, p.sellYesPriceUsd, p.buyNoPriceUsd, p.sellNoPriceUsd].every((v) => v === 0);
  if (noQuote) return { raw: [null, null, null, null], bid: null, ask: null, mid: null };
  const bid =
    p.sellYesPriceUsd !== 0
      ? p.sellYesPriceUsd
      : p.buyNoPriceUsd !== 1_000_000 && p.buyNoPriceUsd !== 0
        ? 1_000_000 - p.buyNoPriceUsd
        : null;
  const ask =
    p.buyYesPriceUsd !== 1_000_000 && p.buyYesPriceUsd !== 0
      ? p.buyYesPriceUsd
      : p.sellNoPriceUsd !== 0
        ? 1_000_000 - p.sellNoPriceUsd
        : null;
  const usd = (micro: number | null) => (micro === null ? null : fixed(micro, 6));
  return {
    raw: [p.buyYesPriceUsd, p.sellYesPriceUsd, p.buyNoPriceUsd, p.sellNoPriceUsd].map(usd),
    bid: usd(bid),
    ask: usd(ask),
    // (bid + ask) / 2 in USD: half-micro-USD units, 7 decimals.
    mid: bid === null || ask === null ? null : fixed((bid + ask) * 5, 7),
  };
}

describe('analytics over the live profile, against the simulator’s world', () => {
  it('market_latest: one row per stored market, quotes as sent, probabilities in [0, 1] or null, volumes in their units', async () => {
    const rows = await db.sql`select * from analytics.market_latest order by market_id`;
    const stored = await db.sql`select market_id from prediction.markets order by market_id`;
    expect(rows.map((r) => r.market_id)).toEqual(stored.map((m) => m.market_id));
    expect(new Set(rows.map((r) => r.market_id)).size).toBe(rows.length);
    const events = new Map(
      (await db.sql`select event_id, last_seen_at from prediction.events`).map((e) => [e.event_id as string, e.last_seen_at as Date]),
    );

    let closedNoQuote = 0;
    let oneSided = 0;
    for (const r of rows) {
      const id = r.market_id as string;
      const seen = at(r.quote_last_observed_at as Date).markets.get(id)!;
      const q = expectedQuote(seen.body.pricing, seen.status);
      const p = r.implied_yes_probability === null ? null : Number(r.implied_yes_probability);
      if (p !== null) expect(p, id).toBeGreaterThanOrEqual(0);
      if (p !== null) expect(p, id).toBeLessThanOrEqual(1);
      expect({
        id,
        status: r.status,
        raw: [r.buy_yes_usd, r.sell_yes_usd, r.buy_no_usd, r.sell_no_usd].map(dec),
        bid: dec(r.yes_bid_usd),
        ask: dec(r.yes_ask_usd),
        mid: dec(r.yes_mid_usd),
        probability: dec(r.implied_yes_probability),
        volume: [r.volume, r.volume_usd],
        eventVolume: r.event_volume_micro_usd,
      }).toEqual({
        id,
        status: seen.status,
        raw: q.raw,
        bid: q.bid,
        ask: q.ask,
        mid: q.mid,
        probability: q.mid,
        // pricing.volume: whole dollars, as received.
        volume: [String(seen.body.pricing.volume), String(seen.body.pricing.volume)],
        // The event's volumeUsd string as received (micro-USD), from the sync that last saw the event.
        eventVolume: at(events.get(r.event_id as string)!).events.get(r.event_id as string)!.body.volumeUsd,
      });
      if (seen.status === 'closed') {
        expect([r.implied_yes_probability, r.yes_mid_usd, r.yes_bid_usd, r.yes_ask_usd], id).toEqual([null, null, null, null]);
        closedNoQuote++;
      } else if (q.mid === null) oneSided++;
    }
    // The cases that matter occur: closed markets quoting zeros, and open ones with a side missing.
    expect(closedNoQuote).toBeGreaterThan(0);
    expect(oneSided).toBeGreaterThan(0);
    // A market's volume is whole dollars; the event's is micro-USD: for one-market events they agree exactly.
    const single = rows.filter((r) => first.events.get(r.event_id as string)?.marketIds.length === 1 && r.volume_usd !== null);
    expect(single.length).toBeGreaterThan(0);
    for (const r of single) expect(r.event_volume_micro_usd, r.market_id as string).toBe(`${r.volume_usd}000000`);
  });

  it('price_as_of: what was known at each instant, equal to what the world sent then, and nothing before the first observation', async () => {
    const [t0, t1] = [first.atMs, second.atMs];
    const open0 = [...first.markets].filter(([id, m]) => m.status === 'open' && second.markets.get(id));
    // One market repriced between the syncs, one that closed in between, one quoting a side as missing.
    const repriced = open0.find(
      ([id, m]) =>
        second.markets.get(id)!.status === 'open' && m.body.pricing.buyYesPriceUsd !== second.markets.get(id)!.body.pricing.buyYesPriceUsd,
    )?.[0];
    const closed = open0.find(([id]) => second.markets.get(id)!.status === 'closed')?.[0];
    const oneSided = open0.find(
      ([id]) => second.markets.get(id)!.status === 'open' && expectedQuote(second.markets.get(id)!.body.pricing, 'open').mid === null,
    )?.[0];
    expect(Object.entries({ repriced, closed, oneSided }).filter(([, id]) => id === undefined)).toEqual([]);

    for (const id of [repriced!, closed!, oneSided!]) {
      const pairs: [number, Capture | null][] = [
        [t0 - 1, null], // 1 ms before the first sync: the market was unknown
        [t0, first],
        [t0 + DAY_SEC * 1000, first], // between the syncs: the last known prices, not the later ones
        [t1, second],
        [t1 + 3_600_000, second],
      ];
      for (const [ms, expected] of pairs) {
        const rows = await db.sql`select * from analytics.price_as_of(${id}, ${new Date(ms)})`;
        if (expected === null) {
          expect(rows, `${id} at ${ms}`).toEqual([]);
          continue;
        }
        const seen = expected.markets.get(id)!;
        const q = expectedQuote(seen.body.pricing, seen.status);
        // The quote in force was first observed by the first sync, unless the second one saw it change.
        const stored = (c: Capture) => {
          const m = c.markets.get(id)!;
          return JSON.stringify([expectedQuote(m.body.pricing, m.status).raw, m.body.pricing.volume]);
        };
        const quoteFrom = expected === second && stored(second) !== stored(first) ? t1 : t0;
        const r = rows[0]!;
        expect({
          at: `${id} @ ${new Date(ms).toISOString()}`,
          status: r.status,
          result: r.result,
          quoteObservedAt: (r.quote_observed_at as Date).getTime(),
          raw: [r.buy_yes_usd, r.sell_yes_usd, r.buy_no_usd, r.sell_no_usd].map(dec),
          bid: dec(r.yes_bid_usd),
          ask: dec(r.yes_ask_usd),
          probability: dec(r.implied_yes_probability),
          volume: r.volume,
        }).toEqual({
          at: `${id} @ ${new Date(ms).toISOString()}`,
          status: seen.status,
          result: seen.result,
          quoteObservedAt: quoteFrom,
          raw: q.raw,
          bid: q.bid,
          ask: q.ask,
          probability: q.mid,
          volume: String(seen.body.pricing.volume),
        });
      }
    }
  });

  it('market_resolutions: every market the world resolved, with its result and the settlement time of its ISO resolveAt', async () => {
    const all = await db.sql`select * from analytics.market_resolutions order by market_id`;
    const rows = all.filter((r) => r.is_settled);
    const resolved = [...second.markets].filter(([, m]) => m.result !== null).map(([id]) => id);
    const stored = new Set(all.map((m) => m.market_id as string));
    expect(rows.map((r) => r.market_id)).toEqual(resolved.filter((id) => stored.has(id)).sort());
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const m = second.markets.get(r.market_id as string)!;
      expect(m.body.resolveAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect({
        id: r.market_id,
        result: r.result,
        status: r.status,
        settlement: (r.settlement_time as Date).toISOString(),
        lag: Number(r.settlement_lag_seconds),
      }).toEqual({
        id: r.market_id,
        result: m.result,
        status: 'closed',
        settlement: m.body.resolveAt,
        lag: (Date.parse(m.body.resolveAt!) - m.body.closeTime * 1000) / 1000,
      });
    }
    // Every other market: no result, no settlement time (resolveAt null) yet, closed ones included.
    const pending = all.filter((r) => !r.is_settled);
    for (const r of pending) {
      const m = second.markets.get(r.market_id as string)!;
      expect([r.market_id, r.status, r.result, r.settlement_time, m.body.resolveAt]).toEqual([r.market_id, m.status, null, null, null]);
    }
    expect(pending.map((r) => r.status)).toContain('closed');
    // Closed between the syncs (or created since): first seen closed by the second sync; closed before: by the first; open: never.
    for (const r of all) {
      const [was, is] = [first.markets.get(r.market_id as string)?.status, second.markets.get(r.market_id as string)!.status];
      const expected = is === 'open' ? null : was === 'closed' ? first.atMs : second.atMs;
      expect([r.market_id, (r.closed_first_observed_at as Date | null)?.getTime() ?? null]).toEqual([r.market_id, expected]);
    }
  });

  it('orderbook_top: the best YES and NO bids of a live book, and its depth, are those of its dollar arrays, exactly', async () => {
    const latest = await db.sql`select * from analytics.orderbook_top where valid_to is null order by market_id`;
    const withBook = latest.filter((r) => !r.is_null && (r.last_observed_at as Date).getTime() === second.atMs);
    expect(withBook.length).toBeGreaterThan(0);
    /** A dollar price ("0.6450") in hundredths of a cent (6450). */
    const units = (dollars: string) => Math.round(Number(dollars) * 10_000);
    const best = (levels: [string, number][]) => (levels.length === 0 ? null : Math.max(...levels.map(([d]) => units(d))));
    /** Contracts (in hundredths) of the levels within `cents` of the best, or of all levels. */
    const depth = (levels: [string, number][], top: number | null, cents = Infinity) =>
      fixed(
        levels.filter(([d]) => top !== null && units(d) >= top - cents * 100).reduce((sum, [, size]) => sum + Math.round(size * 100), 0),
        2,
      );
    let subCentNearTop = 0;
    let emptySide = 0;
    for (const r of withBook) {
      const book = second.markets.get(r.market_id as string)!.book!;
      const [yes, no] = [best(book.yes_dollars), best(book.no_dollars)];
      const ask = no === null ? null : 10_000 - no;
      expect({
        id: r.market_id,
        yesBid: dec(r.best_yes_bid_cents),
        noBid: dec(r.best_no_bid_cents),
        yesAsk: dec(r.best_yes_ask_cents),
        spread: dec(r.spread_cents),
        mid: dec(r.mid_cents),
        depth: [
          r.yes_bid_depth_1c_contracts,
          r.yes_bid_depth_5c_contracts,
          r.yes_bid_total_contracts,
          r.yes_ask_depth_1c_contracts,
          r.yes_ask_depth_5c_contracts,
          r.yes_ask_total_contracts,
        ].map(dec),
      }).toEqual({
        id: r.market_id,
        yesBid: yes === null ? null : fixed(yes, 2),
        noBid: no === null ? null : fixed(no, 2),
        yesAsk: ask === null ? null : fixed(ask, 2),
        spread: yes === null || ask === null ? null : fixed(ask - yes, 2),
        mid: yes === null || ask === null ? null : fixed((yes + ask) * 5, 3),
        depth: [
          depth(book.yes_dollars, yes, 1),
          depth(book.yes_dollars, yes, 5),
          depth(book.yes_dollars, yes),
          depth(book.no_dollars, no, 1),
          depth(book.no_dollars, no, 5),
          depth(book.no_dollars, no),
        ],
      });
      const nearTop = [
        ...book.yes_dollars.filter(([d]) => yes !== null && units(d) >= yes - 100),
        ...book.no_dollars.filter(([d]) => no !== null && units(d) >= no - 100),
      ];
      if (nearTop.some(([d]) => units(d) % 100 !== 0)) subCentNearTop++;
      if (yes === null || no === null) emptySide++;
    }
    // Sub-cent levels near the top (which the cent arrays round) and books with an empty side both occur.
    expect(subCentNearTop).toBeGreaterThan(0);
    expect(emptySide).toBeGreaterThan(0);
  });

  it('data_freshness: lists the categories outside the documented list, with their events, markets and last complete crawl', async () => {
    const events = await db.sql`select event_id, provider, category from prediction.events`;
    const undocumented = events.filter((e) => !DOCUMENTED.includes(e.category as string));
    expect(undocumented.length).toBeGreaterThan(0);
    const key = (provider: string, category: string) => `${provider}/${category}`;
    const expected = new Map<string, { events: number; active: number; markets: number; open: number; listedNow: boolean }>();
    for (const e of undocumented) {
      const world = second.events.get(e.event_id as string)!;
      const k = key(world.provider, world.category);
      const x = expected.get(k) ?? { events: 0, active: 0, markets: 0, open: 0, listedNow: false };
      x.events++;
      if (world.isActive) x.active++;
      x.listedNow ||= world.isActive;
      for (const id of world.marketIds) {
        x.markets++;
        if (second.markets.get(id)!.status === 'open') x.open++;
      }
      expected.set(k, x);
    }
    const rows = await db.sql`select * from analytics.data_freshness order by provider, category`;
    const got = rows.filter((r) => !DOCUMENTED.includes(r.category as string));
    expect(got.map((r) => key(r.provider as string, r.category as string))).toEqual([...expected.keys()].sort());
    for (const r of got) {
      const x = expected.get(key(r.provider as string, r.category as string))!;
      expect({
        listing: key(r.provider as string, r.category as string),
        events: Number(r.events),
        active: Number(r.active_events),
        markets: Number(r.markets),
        open: Number(r.open_markets),
        crawled: (r.last_complete_crawl_started_at as Date | null)?.getTime(),
      }).toEqual({
        listing: key(r.provider as string, r.category as string),
        events: x.events,
        active: x.active,
        markets: x.markets,
        open: x.open,
        crawled: x.listedNow ? second.atMs : first.atMs,
      });
    }
  });

  it('upstream_drift: the world sends today’s contract, so nothing is listed, and each endpoint has one shape, of today’s fields', async () => {
    expect(await db.sql`select * from analytics.upstream_drift`).toEqual([]);
    const shapes = await db.sql<{ endpoint: string; paths: string[]; changes: unknown[] }[]>`
      select endpoint, paths, changes from prediction.upstream_shapes order by endpoint`;
    expect(shapes.map((s) => s.endpoint)).toEqual(expect.arrayContaining(['/events', '/events#markets', '/orderbook/{marketId}']));
    // One row per endpoint (the endpoint is the table's key with the fingerprint), none with a change.
    expect(new Set(shapes.map((s) => s.endpoint)).size).toBe(shapes.length);
    expect(shapes.filter((s) => s.changes.length > 0)).toEqual([]);
    const current = (endpoint: string) => shapes.find((s) => s.endpoint === endpoint)!.paths;
    // The paths are those of the first record received, in the documented format (`key.subkey:type`, array items as `[]`).
    // Which record comes first depends on the order the crawl's answers arrive in: any event the
    // world served may be it, and their optional fields differ.
    const served = new Set([...first.events.values(), ...second.events.values()].map((e) => shapeOf(e.body)));
    expect(served).toContain([...current('/events')].sort().join(' '));
    // Today's shapes, spelled out: micro-USD strings, no spec-era fields, flat markets with resolveAt, dollar books.
    const events = current('/events');
    expect(events).toEqual(expect.arrayContaining(['volumeUsd:string', 'volume24hr:string', 'tags:array', 'metadata.closeTime:string']));
    expect(events.filter((p) => /^(multipleWinners|series|winner|isTrending|isRecommended|tvlDollars):/.test(p))).toEqual([]);
    const markets = current('/events#markets');
    expect(markets).toEqual(expect.arrayContaining(['pricing.volume:number', 'status:string']));
    expect(markets).toContainEqual(expect.stringMatching(/^resolveAt:/));
    expect(markets.filter((p) => p.startsWith('settlementTime:') || p.startsWith('metadata'))).toEqual([]);
    expect(current('/orderbook/{marketId}').join(' ')).toContain('yes_dollars[][]:string');
  });
});

/** A record's key paths with their JSON types, sorted, space-joined (the documented path format: `key.subkey:type`, array items as `[]`). */
function shapeOf(record: unknown): string {
  const seen = new Set<string>();
  const walk = (value: unknown, path: string) => {
    if (path !== '') seen.add(`${path}:${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`);
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) for (const item of value) walk(item, `${path}[]`);
    else for (const [k, v] of Object.entries(value)) walk(v, path === '' ? k : `${path}.${k}`);
  };
  walk(record, '');
  return [...seen].sort().join(' ');
}
