import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  centsOnlyBook,
  type EventsPage,
  type FixtureEvent,
  type FixtureMarket,
  type FixtureTrade,
  liveFixture,
  replayClosed,
  replayListings,
  type ReplayServer,
  startReplayServer,
} from '../helpers/replayServer.js';
import { type CliResult, runCli } from '../helpers/runCli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/**
 * `sync`, run as a user runs it (the CLI in a child process), against a loopback server replaying
 * the hand-built live fixtures: every event and market is stored with exactly the values received,
 * and nothing is quarantined. Expected values are read from the fixture JSON, field by field.
 */
const API_KEY = 'replay-key-7d41c0';
const PROVIDERS = ['kalshi', 'polymarket', 'bisonfi'];
// Generous: each command is a fresh Node process, slow on a loaded machine.
const CLI_TIMEOUT_MS = 150_000;

let server: ReplayServer;
let db: TestDatabase;
let firstSync: CliResult;
let firstSyncRequests: ReplayServer['requests'];

const env = () => ({
  DATABASE_URL: db.url,
  PREDICTION_API_URL: server.url,
  PREDICTION_API_KEY: API_KEY,
  PREDICTION_PROVIDERS: PROVIDERS.join(','),
  LOG_LEVEL: 'silent',
});

/** Runs the CLI and returns what it printed with the requests it sent to the replay server. */
async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  const before = server.requests.length;
  const result = await runCli(args, { ...env(), ...extraEnv }, CLI_TIMEOUT_MS);
  return { ...result, requests: server.requests.slice(before) };
}

const served = (byProvider: Record<string, FixtureEvent[]>) =>
  Object.entries(byProvider).flatMap(([provider, events]) => events.map((event) => ({ provider, event })));
/** Each event of a listing, with the provider whose listing served it. */
const inListings: { provider: string; event: FixtureEvent }[] = served(replayListings());
/** Each event stored: the listings', then those the closed-events feed showed (a market of a gx sports event among them). */
const listed: { provider: string; event: FixtureEvent }[] = [...inListings, ...served(replayClosed())];
const allMarketsWithProvider = listed.flatMap(({ provider, event }) => event.markets.map((market) => ({ provider, market })));
const recordedTrades = liveFixture<{ data: FixtureTrade[] }>('trades-2026-07.json');
const allMarkets = listed.flatMap(({ event }) => event.markets.map((market) => ({ event, market })));
const openMarketIds = allMarkets
  .filter(({ market }) => market.status === 'open')
  .map(({ market }) => market.marketId)
  .sort();

/** A decimal string in canonical form ("99.90" -> "99.9", "1784304000.000000" -> "1784304000"); null stays null. */
function dec(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  expect(text).toMatch(/^-?\d+(\.\d+)?$/);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** An ISO instant as exact Unix seconds, from its integer milliseconds (no float division). */
function isoSeconds(iso: string): string {
  const ms = Date.parse(iso);
  expect(Number.isInteger(ms)).toBe(true);
  return dec(`${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, '0')}`)!;
}

/** A 4-decimal dollar string as exact cents: "0.9990" -> "99.9", "0.0010" -> "0.1". */
function dollarsToCents(dollars: string): string {
  expect(dollars).toMatch(/^\d+\.\d{4}$/);
  const units = BigInt(dollars.replace('.', '')); // 1/10000 of a dollar = 1/100 of a cent
  return dec(`${units / 100n}.${String(units % 100n).padStart(2, '0')}`)!;
}

const count = async (table: string): Promise<number> => {
  const [row] = (await db.sql.unsafe(`select count(*)::int as n from ${table}`)) as unknown as [{ n: number }];
  return row.n;
};

beforeAll(async () => {
  server = await startReplayServer({ apiKey: API_KEY });
  db = await createTestDatabase();
  const run = await cli(['sync']);
  firstSync = run;
  firstSyncRequests = run.requests;
}, CLI_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await db?.close();
  await server?.close();
});

describe('npm run cli -- sync against replayed live responses', () => {
  it('exits 0 with "sync succeeded", having quarantined nothing', async () => {
    expect(firstSync.stderr).toBe('');
    expect(firstSync.code).toBe(0);
    expect(firstSync.stdout).toMatch(/^sync succeeded: run \d+ /);
    expect(firstSync.stdout).toContain(' rejected 0,');
    expect(await db.sql`select endpoint, entity_id, reason from prediction.rejected_records`).toEqual([]);
    expect(firstSyncRequests.filter((r) => r.status !== 200)).toEqual([]);
  });

  it('crawled each provider’s unfiltered listing (no category parameter), then the books of the open markets', () => {
    const listings = firstSyncRequests.filter((r) => r.path === '/events');
    expect(listings.map((r) => r.query.provider).sort()).toEqual([...PROVIDERS].sort());
    for (const { query } of listings) {
      expect(query).not.toHaveProperty('category');
      expect(query.includeMarkets).toBe('true');
    }
    const books = firstSyncRequests
      .filter((r) => r.path.startsWith('/orderbook/'))
      .map((r) => decodeURIComponent(r.path.slice('/orderbook/'.length)));
    expect(books.sort()).toEqual(openMarketIds);
    expect(firstSyncRequests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('stores every event with the exact values of the fixture', async () => {
    const rows = await db.sql`
      select event_id, provider, series, category, subcategory, title, subtitle, image_url, close_condition, rules_pdf,
             multiple_winners, is_active, is_live, is_trending, is_recommended, winner,
             extract(epoch from begin_at)::text as begin_at, tvl_usd::text as tvl_usd, volume_usd::text as volume_usd, raw
      from prediction.events order by event_id collate "C"`;
    const expected = listed.map(({ provider, event: e }) => {
      const meta = e.metadata as Record<string, string>;
      const { markets: _markets, ...withoutMarkets } = e;
      return {
        event_id: e.eventId,
        provider: (e.provider as string | undefined) ?? provider,
        series: meta.series,
        category: e.category,
        subcategory: e.subcategory,
        title: meta.title,
        subtitle: meta.subtitle,
        image_url: meta.imageUrl,
        close_condition: e.closeCondition,
        rules_pdf: e.rulesPdf,
        multiple_winners: null,
        is_active: e.isActive,
        is_live: e.isLive,
        is_trending: null,
        is_recommended: null,
        winner: null,
        begin_at: dec(e.beginAt as string | null),
        tvl_usd: null,
        volume_usd: e.volumeUsd,
        raw: withoutMarkets,
      };
    });
    expect(rows.map((r) => ({ ...r, begin_at: dec(r.begin_at as string | null), volume_usd: dec(r.volume_usd as string) }))).toEqual(
      expected.sort((a, b) => (a.event_id < b.event_id ? -1 : 1)),
    );

    // The values live-facts quotes, spelled out.
    const byId = new Map(rows.map((r) => [r.event_id as string, r]));
    expect(byId.get('POLY-573410')).toMatchObject({
      category: 'climate & science',
      subcategory: '',
      series: 'atlantic-hurricane-season-2026',
    });
    expect(dec(byId.get('POLY-574122')!.begin_at as string)).toBe('1784692980.306');
    expect(dec(byId.get('POLY-16204')!.begin_at as string)).toBe('1748555553.385');
    expect(byId.get('POLY-572993')).toMatchObject({ begin_at: null, volume_usd: '26003599000000' });
    expect(byId.get('BISONFI-40211')!.provider).toBe('bisonfi');
  });

  it('stores every market with the exact values of the fixture, settlement time from resolveAt', async () => {
    const rows = await db.sql`
      select market_id, event_id, provider, title, subtitle, description, rules_primary, rules_secondary, is_tradable, status, result,
             extract(epoch from open_time)::text as open_time, extract(epoch from close_time)::text as close_time,
             extract(epoch from settlement_time)::text as settlement_time, raw
      from prediction.markets order by market_id collate "C"`;
    const expected = allMarkets
      .map(({ event, market: { pricing: _pricing, ...m } }) => ({
        market_id: m.marketId,
        event_id: event.eventId,
        // The provider of the listing or feed that served it (what the phases select by): a gx
        // market of a polymarket event is stored under polymarket, its own `provider` kept in raw.
        provider: allMarketsWithProvider.find((x) => x.market.marketId === m.marketId)!.provider,
        title: m.title,
        subtitle: null,
        description: null,
        rules_primary: m.rulesPrimary,
        rules_secondary: m.rulesSecondary,
        is_tradable: (m.tradable as boolean | undefined) ?? null,
        status: m.status,
        result: m.result,
        open_time: dec(m.openTime as number),
        close_time: dec(m.closeTime as number),
        settlement_time: m.resolveAt === null ? null : isoSeconds(m.resolveAt as string),
        // As received, without its pricing (documented: prices have their own history).
        raw: m,
      }))
      .sort((a, b) => (a.market_id < b.market_id ? -1 : 1));
    const times = ['open_time', 'close_time', 'settlement_time'] as const;
    expect(rows.map((r) => ({ ...r, ...Object.fromEntries(times.map((t) => [t, dec(r[t] as string | null)])) }))).toEqual(expected);

    const resolved = rows.find((r) => r.market_id === 'POLY-2471502')!;
    expect(resolved).toMatchObject({ status: 'closed', result: 'no', event_id: 'POLY-573410' });
    const [{ at }] = (await db.sql`select settlement_time as at from prediction.markets where market_id = 'POLY-2471502'`) as unknown as [
      { at: Date },
    ];
    expect(at.toISOString()).toBe('2026-07-24T05:14:12.365Z');
    expect(dec(resolved.settlement_time as string)).toBe('1784870052.365');
    expect(rows.filter((r) => (r.market_id as string).startsWith('BISONFI-')).map((r) => r.is_tradable)).toEqual([true, true]);

    // One state each, with the same exact settlement time.
    const states = await db.sql`select market_id, status, result, extract(epoch from settlement_time)::text as settlement_time, valid_to
      from prediction.market_state_history order by market_id collate "C"`;
    expect(states.map((s) => ({ ...s, settlement_time: dec(s.settlement_time as string | null) }))).toEqual(
      expected.map((m) => ({
        market_id: m.market_id,
        status: m.status,
        result: m.result,
        settlement_time: m.settlement_time,
        valid_to: null,
      })),
    );
  });

  it('stores prices as received, and a closed market quoting four zeros as no quote with its volume', async () => {
    const rows = await db.sql`select market_id, buy_yes_micro_usd::text as buy_yes, buy_no_micro_usd::text as buy_no,
        sell_yes_micro_usd::text as sell_yes, sell_no_micro_usd::text as sell_no, volume::text as volume
      from prediction.pricing_snapshots order by market_id collate "C"`;
    const expected = allMarkets
      .map(({ market: m }) => {
        const p = m.pricing;
        const noQuote =
          m.status !== 'open' && [p.buyYesPriceUsd, p.buyNoPriceUsd, p.sellYesPriceUsd, p.sellNoPriceUsd].every((x) => x === 0);
        const price = (x: number | undefined) => (noQuote ? null : dec(x));
        return {
          market_id: m.marketId,
          buy_yes: price(p.buyYesPriceUsd),
          buy_no: price(p.buyNoPriceUsd),
          sell_yes: price(p.sellYesPriceUsd),
          sell_no: price(p.sellNoPriceUsd),
          volume: dec(p.volume),
        };
      })
      .sort((a, b) => (a.market_id < b.market_id ? -1 : 1));
    const canonical = rows.map((r) => ({
      market_id: r.market_id,
      ...Object.fromEntries(['buy_yes', 'buy_no', 'sell_yes', 'sell_no', 'volume'].map((k) => [k, dec(r[k] as string | null)])),
    }));
    expect(canonical).toEqual(expected);
    expect(canonical.find((r) => r.market_id === 'POLY-2471502')).toEqual({
      market_id: 'POLY-2471502',
      buy_yes: null,
      buy_no: null,
      sell_yes: null,
      sell_no: null,
      volume: '1843220',
    });
    expect(canonical.find((r) => r.market_id === 'POLY-2470848')).toEqual({
      market_id: 'POLY-2470848',
      buy_yes: '1000000',
      buy_no: '1000',
      sell_yes: '999000',
      sell_no: '0',
      volume: '26003599',
    });
  });

  it('stores the 96-level book as 96 exact YES levels and no NO level, and every other book as served', async () => {
    const deep = liveFixture<{ yes_dollars: [string, number][]; no_dollars: [string, number][] }>('orderbook-96-levels.json');
    const snapshots =
      await db.sql`select market_id, yes_levels, no_levels, is_null from prediction.orderbook_snapshots order by market_id collate "C"`;
    expect(snapshots.map((s) => s.market_id)).toEqual(openMarketIds);
    expect(snapshots.find((s) => s.market_id === 'POLY-2470848')).toEqual({
      market_id: 'POLY-2470848',
      yes_levels: 96,
      no_levels: 0,
      is_null: false,
    });

    const levels = async (marketId: string, side: 'yes' | 'no') =>
      (
        await db.sql`select price_cents::text as price, size::text as size from prediction.orderbook_levels
        where market_id = ${marketId} and side = ${side} order by price_cents desc`
      ).map((l) => ({ price: dec(l.price as string), size: dec(l.size as string) }));

    const expectedDeep = deep.yes_dollars
      .map(([dollars, size]) => ({ price: dollarsToCents(dollars), size: dec(size) }))
      .sort((a, b) => Number(b.price) - Number(a.price));
    const storedDeep = await levels('POLY-2470848', 'yes');
    expect(storedDeep).toHaveLength(96);
    expect(storedDeep).toEqual(expectedDeep);
    expect(storedDeep[0]).toEqual({ price: '99.9', size: '17741.84' });
    expect(storedDeep.at(-1)).toEqual({ price: '0.1', size: '659518.58' });
    expect(await levels('POLY-2470848', 'no')).toEqual([]);

    for (const { market } of allMarkets.filter(({ market: m }) => m.status === 'open' && m.marketId !== 'POLY-2470848')) {
      const book = centsOnlyBook(market as FixtureMarket);
      for (const side of ['yes', 'no'] as const) {
        expect(await levels(market.marketId, side)).toEqual(book[side].map(([cents, size]) => ({ price: dec(cents), size: dec(size) })));
      }
    }
  });

  it('records the shapes of /events, /events#markets and /orderbook/{marketId}, and a run with nothing rejected and no drift', async () => {
    const shapes = await db.sql`select distinct endpoint from prediction.upstream_shapes order by endpoint`;
    expect(shapes.map((d) => d.endpoint)).toEqual(expect.arrayContaining(['/events', '/events#markets', '/orderbook/{marketId}']));
    // Every replayed record is as the service sends it today, but for the cents-only book (a
    // constructed case, without the dollar arrays): that one change is listed, once a side.
    expect(await db.sql`select endpoint, kind, path, detail from analytics.upstream_drift order by path`).toEqual([
      { endpoint: '/orderbook/{marketId}', kind: 'field_gone', path: 'no_dollars', detail: 'array' },
      { endpoint: '/orderbook/{marketId}', kind: 'field_gone', path: 'yes_dollars', detail: 'array' },
    ]);

    const runs = await db.sql`select status, error, records_rejected, records_by_endpoint from prediction.ingest_runs order by run_id`;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', error: null, records_rejected: 0 });
    const byEndpoint = runs[0]!.records_by_endpoint as Record<string, { accepted: number; accepted_with_drift: number; rejected: number }>;
    expect(Object.keys(byEndpoint).sort()).toEqual([
      '/events',
      '/events#markets',
      '/events/closed',
      '/events/closed#markets',
      '/orderbook/{marketId}',
      '/trades',
    ]);
    for (const counts of Object.values(byEndpoint)) expect(counts.rejected).toBe(0);
    const stored = (endpoint: string) => byEndpoint[endpoint]!.accepted + byEndpoint[endpoint]!.accepted_with_drift;
    const closedEvents = served(replayClosed()).map((c) => c.event);
    expect(stored('/events')).toBe(inListings.length);
    expect(stored('/events#markets')).toBe(inListings.reduce((n, l) => n + l.event.markets.length, 0));
    expect(stored('/events/closed')).toBe(closedEvents.length);
    expect(stored('/events/closed#markets')).toBe(closedEvents.reduce((n, e) => n + e.markets.length, 0));
    expect(stored('/orderbook/{marketId}')).toBe(openMarketIds.length);
    expect([byEndpoint['/events']!.accepted_with_drift, byEndpoint['/events#markets']!.accepted_with_drift]).toEqual([0, 0]);
    expect(stored('/trades')).toBe(recordedTrades.data.length);
  });

  it('stores the 20 trades of the feed exactly, and a first poll with a gap before it', async () => {
    const stored = await db.sql`
      select trade_id, market_id, event_id, extract(epoch from traded_at)::float8 as timestamp, action, side,
             price_micro_usd::text as price, amount_micro_usd::text as amount, owner_pubkey
      from prediction.trades order by traded_at desc, trade_id`;
    expect(recordedTrades.data).toHaveLength(20);
    expect(stored).toEqual(
      recordedTrades.data.map((t) => ({
        trade_id: t.id,
        market_id: t.marketId,
        event_id: t.eventId,
        timestamp: t.timestamp,
        action: t.action,
        side: t.side,
        price: t.priceUsd,
        amount: t.amountUsd,
        owner_pubkey: t.ownerPubkey,
      })),
    );
    expect(await db.sql`select trades_seen, trades_new, gap_before from analytics.trade_coverage`).toEqual([
      { trades_seen: 20, trades_new: 20, gap_before: true },
    ]);
  });

  it('reads the closed-events feed of each provider: the 5-minute event seen only there is stored with its result', async () => {
    const feeds = firstSyncRequests.filter((r) => r.path === '/events/closed');
    expect(feeds.map((r) => r.query.provider).sort()).toEqual([...PROVIDERS].sort());
    // No watermark yet: the service's own default span.
    for (const { query } of feeds) expect(query).not.toHaveProperty('since');
    const markets = await db.sql`select market_id, event_id, status, result, settlement_time from prediction.markets
      where market_id in ('POLY-2794564-0', 'POLY-558956', 'POLY-2794871-0') order by market_id collate "C"`;
    expect(
      markets.map((m) => [m.market_id, m.event_id, m.status, m.result, (m.settlement_time as Date | null)?.toISOString() ?? null]),
    ).toEqual([
      ['POLY-2794564-0', 'POLY-2794564', 'closed', 'yes', '2026-07-05T11:55:41.027Z'],
      ['POLY-2794871-0', 'POLY-2794871', 'open', null, null],
      ['POLY-558956', 'POLY-558950', 'closed', 'draw', '2026-07-05T10:04:51.220Z'],
    ]);
    // The one-sided open market: no NO quote on either side, kept as sent.
    const [oneSided] = await db.sql`select buy_no_micro_usd::text as buy_no, sell_no_micro_usd::text as sell_no
      from prediction.pricing_snapshots where market_id = 'POLY-2794871-0'`;
    expect(oneSided).toEqual({ buy_no: '0', sell_no: '0' });
    const [watermark] = await db.sql`select read_through from prediction.closed_feed_watermarks where provider = 'polymarket'`;
    expect((watermark!.read_through as Date).toISOString()).toBe(
      liveFixture<{ timestamp: string }>('events-closed-polymarket.json').timestamp,
    );
    const [scored] = await db.sql`select raw->'liveScore'->>'score' as score from prediction.events where event_id = 'POLY-558950'`;
    expect(scored!.score).toBe('1-1');
  });

  it('stores the service’s own event counts per category beside the run', async () => {
    const counts =
      await db.sql`select provider, category, event_count from prediction.category_counts order by provider collate "C", category collate "C"`;
    const expected = inListings.reduce(
      (m, { provider, event }) => m.set(`${provider}\u0000${event.category}`, (m.get(`${provider}\u0000${event.category}`) ?? 0) + 1),
      new Map<string, number>(),
    );
    expect(counts.map((c) => [c.provider, c.category, c.event_count])).toEqual(
      [...expected].map(([key, n]) => [...key.split('\u0000'), n]).sort((a, b) => (`${a[0]}/${a[1]}` < `${b[0]}/${b[1]}` ? -1 : 1)),
    );
  });

  it('records coverage of each provider’s listing (`all`) and of every category it showed', async () => {
    const rows =
      await db.sql`select provider, category, events_seen, complete from prediction.crawl_coverage order by provider collate "C", category collate "C"`;
    const expected = PROVIDERS.flatMap((provider) => {
      const events = inListings.filter((l) => l.provider === provider).map((l) => l.event);
      const categories = [...new Set(events.map((e) => e.category as string))];
      return [
        { provider, category: 'all', events_seen: events.length, complete: true },
        ...categories.map((category) => ({
          provider,
          category,
          events_seen: events.filter((e) => e.category === category).length,
          complete: true,
        })),
      ];
    }).sort((a, b) => (a.provider === b.provider ? (a.category < b.category ? -1 : 1) : a.provider < b.provider ? -1 : 1));
    expect(rows).toEqual(expected);
    expect(rows.map((r) => r.category)).toContain('climate & science');
  });

  it(
    'a second sync on the same database exits 0 and writes no new data row',
    async () => {
      const tables = [
        'prediction.pricing_snapshots',
        'prediction.orderbook_snapshots',
        'prediction.orderbook_levels',
        'prediction.market_state_history',
        'prediction.event_state_history',
        'prediction.events',
        'prediction.markets',
        'prediction.rejected_records',
        'prediction.trades',
      ];
      const before = await Promise.all(tables.map(count));
      expect(before[0]).toBe(allMarkets.length);
      const second = await cli(['sync']);
      expect(second.stderr).toBe('');
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/^sync succeeded: run \d+ /);
      expect(second.requests.filter((r) => r.path === '/events')).toHaveLength(PROVIDERS.length);
      expect(await Promise.all(tables.map(count))).toEqual(before);
      const [run] = await db.sql`select status, records_rejected from prediction.ingest_runs order by run_id desc limit 1`;
      expect(run).toEqual({ status: 'succeeded', records_rejected: 0 });
      // The feed answered the same 20: the poll joined the first, with nothing new.
      const [poll] = await db.sql`select trades_seen, trades_new, gap_before from analytics.trade_coverage order by poll_id desc limit 1`;
      expect(poll).toEqual({ trades_seen: 20, trades_new: 0, gap_before: false });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'a sync whose 20 trades all post-date the stored ones stores them and records the gap',
    async () => {
      const later = recordedTrades.data.map((t, i) => ({ ...t, id: `order-${2_400_000 + i}`, timestamp: t.timestamp + 3600 }));
      server.trades = { data: later };
      try {
        const result = await cli(['sync']);
        expect(result.code).toBe(0);
      } finally {
        server.trades = liveFixture('trades-2026-07.json');
      }
      expect(await count('prediction.trades')).toBe(40);
      const [poll] = await db.sql`select trades_seen, trades_new, gap_before from analytics.trade_coverage order by poll_id desc limit 1`;
      expect(poll).toEqual({ trades_seen: 20, trades_new: 20, gap_before: true });
    },
    CLI_TIMEOUT_MS,
  );
});

describe('exploring the replayed service', () => {
  it(
    'search trump --limit 2 prints all 10 events the service answered, none rejected',
    async () => {
      const result = await cli(['search', 'trump', '--limit', '2']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.requests).toEqual([{ method: 'GET', path: '/events/search', query: { query: 'trump', limit: '2' }, status: 200 }]);
      const printed = JSON.parse(result.stdout) as { events: { ok: boolean; value?: { eventId: string; markets: unknown[] } }[] };
      const fixture = liveFixture<EventsPage>('search-trump.json');
      expect(fixture.data).toHaveLength(10);
      expect(printed.events.map((e) => e.ok)).toEqual(fixture.data.map(() => true));
      expect(printed.events.map((e) => e.value!.eventId)).toEqual(fixture.data.map((e) => e.eventId));
      expect(printed.events.filter((e) => e.value!.markets.length !== 0)).toEqual([]);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'orderbook POLY-2470848 prints 96 exact YES levels and no rejection',
    async () => {
      const result = await cli(['orderbook', 'POLY-2470848']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout) as {
        ok: boolean;
        value: { isNull: boolean; yes: { priceCents: string; size: string }[]; no: unknown[] };
      };
      expect(printed.ok).toBe(true);
      expect(printed.value.isNull).toBe(false);
      expect(printed.value.no).toEqual([]);
      const deep = liveFixture<{ yes_dollars: [string, number][] }>('orderbook-96-levels.json');
      expect(printed.value.yes.map((l) => ({ price: dec(l.priceCents), size: dec(l.size) }))).toEqual(
        deep.yes_dollars.map(([dollars, size]) => ({ price: dollarsToCents(dollars), size: dec(size) })).reverse(),
      );
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'the replay server refuses a wrong key, and the CLI exits 3',
    async () => {
      const result = await cli(['orderbook', 'POLY-2470848'], { PREDICTION_API_KEY: 'wrong-key-000' });
      expect(result.code).toBe(3);
      expect(result.requests.map((r) => r.status)).toEqual([401]);
    },
    CLI_TIMEOUT_MS,
  );
});
