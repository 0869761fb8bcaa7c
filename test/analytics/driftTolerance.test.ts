import { beforeAll, describe, expect, it } from 'vitest';

import type { ContractChange, Market, Pricing } from '../../src/domain/types.js';
import * as analytics from '../../src/schema/analytics.js';
import { recordShapes } from '../../src/sql/writes/recordShapes.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { QUOTE_COLUMNS } from '../helpers/quoteColumns.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { useDrizzle } from '../helpers/useDrizzle.js';
import { iso, num, t, time, values } from './knownDataset.js';

const db = await useTestDatabase();
const orm = useDrizzle(db.url);

const prices = (buyYes: string, sellYes: string, buyNo: string, sellNo: string, volume = '100'): Pricing => ({
  buyYesMicroUsd: buyYes,
  sellYesMicroUsd: sellYes,
  buyNoMicroUsd: buyNo,
  sellNoMicroUsd: sellNo,
  volume,
});

/**
 * Prices as the live service sends them at the edges (micro-USD), and what analytics must read:
 *   NO_ASK_NO_NO_BID: buyYes 1,000,000 (no YES ask), sellNo 0 (no NO bid): bid 0.40, ask missing.
 *   NO_BID_NO_NO_ASK: sellYes 0 (no YES bid), buyNo 1,000,000 (no NO ask): bid missing, ask 0.03.
 *   FALLBACKS: sellYes 0 and buyYes 1,000,000, but the NO side quotes: bid 1 - 0.25, ask 1 - 0.20.
 *   CLOSED: all four 0, a closed market without a quote: nothing.
 *   CROSSED: bid 0.70 above ask 0.65: shown as is (negative spread), not clamped.
 */
const EDGE = {
  NO_ASK_NO_NO_BID: prices('1000000', '400000', '620000', '0', '26003599'),
  NO_BID_NO_NO_ASK: prices('30000', '0', '1000000', '970000'),
  FALLBACKS: prices('1000000', '0', '250000', '200000'),
  CLOSED: prices('0', '0', '0', '0'),
  CROSSED: prices('650000', '700000', '300000', '350000'),
};
const NORMAL = prices('650000', '640000', '360000', '350000');

/** Status and result values the spec never listed, and a record missing its status and times. */
const unknown = (overrides: Record<string, unknown>) => overrides as Partial<Market>;

beforeAll(async () => {
  const write = (min: number, markets: Market[]) =>
    writeEvents(db.sql, {
      runId: null,
      endpoint: '/events',
      observedAt: t(min),
      events: [
        ok(
          event(
            'EDGE',
            markets.filter((m) => m.marketId.startsWith('X')),
            { volumeUsd: '26003599000000' },
          ),
        ),
        ok(
          event(
            'DRIFT',
            markets.filter((m) => m.marketId.startsWith('U')),
            { provider: 'bisonfi', category: 'climate & science' },
          ),
        ),
      ],
    });
  await write(0, [
    market('X1', { pricing: NORMAL }),
    market('X2', { pricing: EDGE.NO_BID_NO_NO_ASK }),
    market('X3', { pricing: EDGE.FALLBACKS }),
    market('X4', { status: 'closed', result: 'no', pricing: EDGE.CLOSED }),
    market('X5', { pricing: EDGE.CROSSED }),
    market('U1', { pricing: NORMAL }),
    market('U2', unknown({ status: null, openTimeSec: null, closeTimeSec: null, pricing: null })),
  ]);
  // X1 loses its ask; U1 is cancelled and voided.
  await write(10, [
    market('X1', { pricing: EDGE.NO_ASK_NO_NO_BID }),
    market('U1', unknown({ status: 'cancelled', result: 'void', pricing: NORMAL })),
  ]);
});

describe('edge prices (0 = no bid, 1,000,000 = no ask)', () => {
  const shape = (r: Record<string, unknown>) => [r.market_id, ...QUOTE_COLUMNS.map((c) => num(r[c]))];

  it('leave the raw prices as received and make the derived quote null where a side is missing', async () => {
    const rows = await db.sql`
      select * from analytics.market_latest where market_id like 'X%' order by market_id`;
    expect(rows.map(shape)).toEqual([
      // raw buy_yes, sell_yes, buy_no, sell_no | bid, ask, mid, spread, probability
      ['X1', 1, 0.4, 0.62, 0, 0.4, null, null, null, null],
      ['X2', 0.03, 0, 1, 0.97, null, 0.03, null, null, null],
      ['X3', 1, 0, 0.25, 0.2, 0.75, 0.8, 0.775, 0.05, 0.775],
      ['X4', 0, 0, 0, 0, null, null, null, null, null],
      ['X5', 0.65, 0.7, 0.3, 0.35, 0.7, 0.65, 0.675, -0.05, 0.675],
    ]);
    // Still exact decimals, as 0004 scaled them.
    expect(rows[2]).toMatchObject({ yes_bid_usd: '0.750000', yes_ask_usd: '0.800000', buy_yes_usd: '1.000000' });
  });

  it('are read the same way in the price history, the as-of lookups and the candles', async () => {
    const history = await db.sql`
      select valid_from, yes_bid_usd, yes_ask_usd, yes_mid_usd from analytics.price_history where market_id = 'X1' order by valid_from`;
    expect(history.map((r) => [time(r.valid_from), num(r.yes_bid_usd), num(r.yes_ask_usd), num(r.yes_mid_usd)])).toEqual([
      [iso(0), 0.64, 0.65, 0.645],
      [iso(10), 0.4, null, null],
    ]);

    const asOf = await db.sql`
      select input_ordinal, yes_mid_usd, implied_yes_probability, yes_bid_usd
      from analytics.prices_as_of(${['X1', 'X1', 'X4']}::text[], ${[iso(5), iso(10), iso(10)]}::timestamptz[])`;
    expect(asOf.map((r) => [Number(r.input_ordinal), num(r.yes_mid_usd), num(r.implied_yes_probability), num(r.yes_bid_usd)])).toEqual([
      [1, 0.645, 0.645, 0.64],
      [2, null, null, 0.4],
      [3, null, null, null],
    ]);

    const candles = await db.sql`
      select bucket_start, open_yes_mid_usd, high_yes_mid_usd, low_yes_mid_usd, close_yes_mid_usd, avg_yes_spread_usd, quote_changes
      from analytics.candles('X1', '10 minutes', ${iso(0)}::timestamptz, ${iso(20)}::timestamptz)`;
    expect(candles.map(values)).toEqual([
      [iso(0), 0.645, 0.645, 0.645, 0.645, 0.01, 1],
      // The one-sided quote has no mid: not a mid of 0.7 (bid 0.40 with an "ask" of 1.00).
      [iso(10), null, null, null, null, null, 1],
    ]);
    // A bucket over both: high and low skip the quote without a mid, close is null.
    const [wide] = await db.sql`
      select * from analytics.candles('X1', '20 minutes', ${iso(0)}::timestamptz, ${iso(20)}::timestamptz)`;
    expect([num(wide!.open_yes_mid_usd), num(wide!.high_yes_mid_usd), num(wide!.low_yes_mid_usd), num(wide!.close_yes_mid_usd)]).toEqual([
      0.645,
      0.645,
      0.645,
      null,
    ]);
  });
});

describe('volume units', () => {
  it('show the pricing volume as whole USD (volume_usd = volume) and the event volume as received, in micro-USD', async () => {
    const rows = await db.sql`
      select market_id, volume, volume_usd, event_volume_micro_usd from analytics.market_latest where market_id in ('X1', 'U1') order by 1`;
    expect(rows).toEqual([
      { market_id: 'U1', volume: '100', volume_usd: '100', event_volume_micro_usd: '123456.789' },
      { market_id: 'X1', volume: '26003599', volume_usd: '26003599', event_volume_micro_usd: '26003599000000' },
    ]);
    const [history] =
      await db.sql`select volume, volume_usd from analytics.price_history where market_id = 'X1' order by valid_from desc limit 1`;
    expect(history).toEqual({ volume: '26003599', volume_usd: '26003599' });
  });
});

describe('values outside the documented lists', () => {
  it('are stored as received: an unknown status and result, a missing status and trading times, a new category and provider', async () => {
    const markets = await db.sql`
      select m.market_id, m.status, m.result, m.open_time, m.close_time, e.provider, e.category
      from prediction.markets m join prediction.events e using (event_id) where m.market_id like 'U%' order by 1`;
    expect(markets).toEqual([
      {
        market_id: 'U1',
        status: 'cancelled',
        result: 'void',
        open_time: new Date(1_767_225_600_000),
        close_time: new Date(1_767_312_000_000),
        provider: 'bisonfi',
        category: 'climate & science',
      },
      {
        market_id: 'U2',
        status: null,
        result: null,
        open_time: null,
        close_time: null,
        provider: 'bisonfi',
        category: 'climate & science',
      },
    ]);
    const history =
      await db.sql`select status, result, valid_from from prediction.market_state_history where market_id = 'U1' order by valid_from`;
    expect(history.map((h) => [h.status, h.result, time(h.valid_from)])).toEqual([
      ['open', null, iso(0)],
      ['cancelled', 'void', iso(10)],
    ]);
  });

  it('are shown as received, and an unknown status counts as neither open nor closed', async () => {
    const latest =
      await db.sql`select market_id, status, result, open_time, category, provider from analytics.market_latest where market_id like 'U%' order by 1`;
    expect(latest).toEqual([
      {
        market_id: 'U1',
        status: 'cancelled',
        result: 'void',
        open_time: new Date(1_767_225_600_000),
        category: 'climate & science',
        provider: 'bisonfi',
      },
      { market_id: 'U2', status: null, result: null, open_time: null, category: 'climate & science', provider: 'bisonfi' },
    ]);
    const resolutions = await db.sql`
      select market_id, status, is_settled, closed_first_observed_at, settled_first_observed_at, settlement_lag_seconds
      from analytics.market_resolutions where market_id like 'U%' order by 1`;
    expect(
      resolutions.map((r) => [
        r.market_id,
        r.status,
        r.is_settled,
        r.closed_first_observed_at,
        time(r.settled_first_observed_at),
        r.settlement_lag_seconds,
      ]),
    ).toEqual([
      ['U1', 'cancelled', true, null, iso(10), null],
      ['U2', null, false, null, null, null],
    ]);
    const [freshness] = await db.sql`select * from analytics.data_freshness where provider = 'bisonfi'`;
    expect([freshness!.category, Number(freshness!.markets), Number(freshness!.open_markets)]).toEqual(['climate & science', 2, 0]);
    const [asOf] = await db.sql`select status, result from analytics.price_as_of('U1', ${iso(10)}::timestamptz)`;
    expect(asOf).toEqual({ status: 'cancelled', result: 'void' });
  });
});

describe('analytics.upstream_drift', () => {
  // The write path records shapes of its own under the real endpoint labels; these are apart.
  const MARKETS = 'test:/events#markets';
  const BOOKS = 'test:/orderbook/{marketId}';
  const EVENTS = 'test:/events';
  const NEW_FEE = { kind: 'new_field', path: 'pricing.fee', detail: 'number' } as const;
  const STATUS_NUMBER = { kind: 'changed_type', path: 'status', detail: 'string -> number' } as const;
  const SUSPENDED = { kind: 'new_value', path: 'status', detail: '"suspended"' } as const;

  beforeAll(async () => {
    const [run] =
      await db.sql`insert into prediction.ingest_runs (job, started_at, status) values ('sync', now(), 'running') returning run_id`;
    const runId = Number(run!.run_id);
    const shape = (endpoint: string, fingerprint: string, changes: ContractChange[], count = 1) => ({
      endpoint,
      fingerprint,
      paths: ['marketId:string'],
      example: { fingerprint },
      changes,
      count,
    });
    // Records as today's contract has them (no change), then a new field, then the new field with a
    // changed type beside it: the new field is one change seen by 8 records, not a row per shape.
    await recordShapes(db.sql, runId, [shape(MARKETS, 'ok', [], 50), shape(BOOKS, 'b', [])], t(0));
    await recordShapes(db.sql, runId, [shape(MARKETS, 'fee', [NEW_FEE], 5)], t(10));
    await recordShapes(db.sql, runId, [shape(MARKETS, 'fee+num', [NEW_FEE, STATUS_NUMBER], 3), shape(MARKETS, 'ok', [], 40)], t(20));
    await recordShapes(db.sql, runId, [shape(EVENTS, 'e', [SUSPENDED], 2)], t(20));
  });

  it('lists each change once, with its first and last sighting and the records that showed it; matching records list nothing', async () => {
    const rows = await db.sql`select * from analytics.upstream_drift where endpoint like 'test:%' order by endpoint, first_seen_at, kind`;
    expect(
      rows.map((r) => [
        r.endpoint,
        r.kind,
        r.path,
        r.detail,
        time(r.first_seen_at),
        time(r.last_seen_at),
        Number(r.records_seen),
        r.is_current,
      ]),
    ).toEqual([
      [EVENTS, 'new_value', 'status', '"suspended"', iso(20), iso(20), 2, true],
      [MARKETS, 'new_field', 'pricing.fee', 'number', iso(10), iso(20), 8, true],
      [MARKETS, 'changed_type', 'status', 'string -> number', iso(20), iso(20), 3, true],
    ]);
    // The example is that of the shape where the change was first seen.
    expect(rows[1]!.example).toEqual({ fingerprint: 'fee' });
  });

  it('marks a change no longer current once the endpoint sends only records without it', async () => {
    await recordShapes(db.sql, null, [{ endpoint: MARKETS, fingerprint: 'ok', paths: [], example: null, count: 2, changes: [] }], t(30));
    const rows = await orm.select().from(analytics.upstreamDrift);
    const markets = rows.filter((r) => r.endpoint === MARKETS).sort((a, b) => a.firstSeenAt.getTime() - b.firstSeenAt.getTime());
    expect(markets.map((r) => [r.kind, r.isCurrent, r.recordsSeen, r.lastSeenAt.toISOString()])).toEqual([
      ['new_field', false, 8, iso(20)],
      ['changed_type', false, 3, iso(20)],
    ]);
  });

  it('lists nothing for a shape recorded before drift was measured against the contract (changes null)', async () => {
    await db.sql`insert into prediction.upstream_shapes (endpoint, fingerprint, paths, example, records_seen, first_seen_at, last_seen_at)
      values ('test:/old', 'old', '{a:string}', '{}', 9, ${t(0)}, ${t(0)})`;
    expect(await db.sql`select * from analytics.upstream_drift where endpoint = 'test:/old'`).toHaveLength(0);
  });
});
