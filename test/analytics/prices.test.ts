import { beforeAll, describe, expect, it } from 'vitest';

import { QUOTE_COLUMNS } from '../helpers/quoteColumns.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { iso, num, pick, t, time, writeKnownDataset } from './knownDataset.js';

const db = await useTestDatabase();
beforeAll(() => writeKnownDataset(db.sql));

describe('analytics.price_history', () => {
  it('turns the change-only snapshots into validity intervals with USD prices, mid, spread and probability', async () => {
    const rows = await db.sql`
      select * from analytics.price_history where market_id = 'M1' order by valid_from`;
    const cols = ['valid_from', 'valid_to', 'last_observed_at', ...QUOTE_COLUMNS];
    expect(rows.map((r) => pick(r, cols))).toEqual([
      {
        valid_from: iso(0),
        valid_to: iso(10),
        last_observed_at: iso(5),
        buy_yes_usd: 0.65,
        sell_yes_usd: 0.64,
        buy_no_usd: 0.36,
        sell_no_usd: 0.35,
        yes_bid_usd: 0.64,
        yes_ask_usd: 0.65,
        yes_mid_usd: 0.645,
        yes_spread_usd: 0.01,
        implied_yes_probability: 0.645,
      },
      {
        valid_from: iso(10),
        valid_to: iso(90),
        last_observed_at: iso(20),
        buy_yes_usd: 0.7,
        sell_yes_usd: 0.68,
        buy_no_usd: 0.32,
        sell_no_usd: 0.3,
        yes_bid_usd: 0.68,
        yes_ask_usd: 0.7,
        yes_mid_usd: 0.69,
        yes_spread_usd: 0.02,
        implied_yes_probability: 0.69,
      },
      {
        valid_from: iso(90),
        valid_to: iso(100),
        last_observed_at: iso(95),
        buy_yes_usd: 0.6,
        sell_yes_usd: 0.58,
        buy_no_usd: 0.42,
        sell_no_usd: 0.4,
        yes_bid_usd: 0.58,
        yes_ask_usd: 0.6,
        yes_mid_usd: 0.59,
        yes_spread_usd: 0.02,
        implied_yes_probability: 0.59,
      },
      {
        valid_from: iso(100),
        valid_to: null,
        last_observed_at: iso(100),
        buy_yes_usd: 0.02,
        sell_yes_usd: 0.01,
        buy_no_usd: 0.99,
        sell_no_usd: 0.98,
        yes_bid_usd: 0.01,
        yes_ask_usd: 0.02,
        yes_mid_usd: 0.015,
        yes_spread_usd: 0.01,
        implied_yes_probability: 0.015,
      },
    ]);
    // Exact decimals, not floats: micro-USD scaled without rounding.
    expect(rows[0]!.buy_yes_usd).toBe('0.650000');
  });

  it('fills a missing YES bid from the NO ask (1 - buy_no)', async () => {
    const [m2] = await db.sql`select * from analytics.price_history where market_id = 'M2'`;
    expect(
      pick(m2, [
        'valid_from',
        'valid_to',
        'last_observed_at',
        'sell_yes_usd',
        'yes_bid_usd',
        'yes_ask_usd',
        'yes_mid_usd',
        'yes_spread_usd',
      ]),
    ).toEqual({
      valid_from: iso(0),
      valid_to: null,
      last_observed_at: iso(100),
      sell_yes_usd: null,
      yes_bid_usd: 0.28,
      yes_ask_usd: 0.3,
      yes_mid_usd: 0.29,
      yes_spread_usd: 0.02,
    });
  });
});

describe('analytics.market_latest', () => {
  /** Every market of the dataset is listed in E1, last seen and its quote last confirmed by the listing at t100. */
  const LISTED_IN_E1 = {
    event_id: 'E1',
    provider: 'polymarket',
    category: 'crypto',
    last_seen_at: iso(100),
    quote_last_observed_at: iso(100),
  };
  /** M2 and M3: open, unresolved, closing at the fixtures' close time. */
  const OPEN_UNRESOLVED = { status: 'open', result: null, settlement_time: null, close_time: '2026-01-02T00:00:00.000Z' };

  it('shows every market with its current state and prices and the time of its last observation', async () => {
    const rows = await db.sql`select * from analytics.market_latest order by market_id`;
    const cols = [
      'market_id',
      'event_id',
      'provider',
      'category',
      'status',
      'result',
      'settlement_time',
      'close_time',
      'last_seen_at',
      'quote_observed_at',
      'quote_last_observed_at',
      'yes_bid_usd',
      'yes_ask_usd',
      'yes_mid_usd',
      'yes_spread_usd',
      'implied_yes_probability',
      'volume',
    ];
    expect(rows.map((r) => pick(r, cols))).toEqual([
      {
        market_id: 'M1',
        ...LISTED_IN_E1,
        status: 'closed',
        result: 'no',
        settlement_time: iso(98),
        close_time: iso(60),
        quote_observed_at: iso(100),
        yes_bid_usd: 0.01,
        yes_ask_usd: 0.02,
        yes_mid_usd: 0.015,
        yes_spread_usd: 0.01,
        implied_yes_probability: 0.015,
        volume: 100,
      },
      {
        market_id: 'M2',
        ...LISTED_IN_E1,
        ...OPEN_UNRESOLVED,
        quote_observed_at: iso(0),
        yes_bid_usd: 0.28,
        yes_ask_usd: 0.3,
        yes_mid_usd: 0.29,
        yes_spread_usd: 0.02,
        implied_yes_probability: 0.29,
        volume: 5,
      },
      {
        market_id: 'M3',
        ...LISTED_IN_E1,
        ...OPEN_UNRESOLVED,
        quote_observed_at: iso(100),
        yes_bid_usd: 0.64,
        yes_ask_usd: 0.65,
        yes_mid_usd: 0.645,
        yes_spread_usd: 0.01,
        implied_yes_probability: 0.645,
        volume: 1234,
      },
    ]);
  });
});

describe('analytics.price_as_of', () => {
  /** M1 as known at `at` (an SQL expression over the ISO instant), or undefined. */
  async function asOf(at: string, minusMicros = 0) {
    const [row] = await db.sql`
      select * from analytics.price_as_of('M1', ${at}::timestamptz - make_interval(secs => ${minusMicros}::float8 / 1e6))`;
    return (
      row &&
      pick(row, [
        'status',
        'result',
        'settlement_time',
        'state_observed_at',
        'quote_observed_at',
        'yes_mid_usd',
        'yes_spread_usd',
        'buy_yes_usd',
      ])
    );
  }

  it('is right exactly at each change instant, and 1 µs before it', async () => {
    expect(await asOf(iso(0), 1)).toBeUndefined();
    expect(await asOf(iso(0))).toEqual({
      status: 'open',
      result: null,
      settlement_time: null,
      state_observed_at: iso(0),
      quote_observed_at: iso(0),
      yes_mid_usd: 0.645,
      yes_spread_usd: 0.01,
      buy_yes_usd: 0.65,
    });

    expect(await asOf(iso(10), 1)).toMatchObject({ quote_observed_at: iso(0), yes_mid_usd: 0.645 });
    expect(await asOf(iso(10))).toMatchObject({ quote_observed_at: iso(10), yes_mid_usd: 0.69, status: 'open' });

    // Through the unobserved stretch the last known values hold.
    expect(await asOf(iso(60))).toMatchObject({ quote_observed_at: iso(10), yes_mid_usd: 0.69, status: 'open' });

    expect(await asOf(iso(90), 1)).toMatchObject({ status: 'open', state_observed_at: iso(0), yes_mid_usd: 0.69 });
    expect(await asOf(iso(90))).toMatchObject({
      status: 'closed',
      result: null,
      state_observed_at: iso(90),
      quote_observed_at: iso(90),
      yes_mid_usd: 0.59,
    });

    expect(await asOf(iso(100), 1)).toMatchObject({ status: 'closed', result: null, settlement_time: null, yes_mid_usd: 0.59 });
    expect(await asOf(iso(100))).toEqual({
      status: 'closed',
      result: 'no',
      settlement_time: iso(98),
      state_observed_at: iso(100),
      quote_observed_at: iso(100),
      yes_mid_usd: 0.015,
      yes_spread_usd: 0.01,
      buy_yes_usd: 0.02,
    });
    expect(await asOf('2030-01-01T00:00:00Z')).toMatchObject({ result: 'no', yes_mid_usd: 0.015 });
  });

  it('works as a LATERAL join over a table of signals (a backtest)', async () => {
    const rows = await db.sql`
      with signals(market_id, at) as (values ('M1', ${iso(5)}::timestamptz), ('M2', ${iso(5)}::timestamptz),
                                             ('M1', ${iso(95)}::timestamptz), ('M3', ${iso(50)}::timestamptz))
      select s.market_id, s.at, p.yes_mid_usd, p.status
      from signals s left join lateral analytics.price_as_of(s.market_id, s.at) p on true
      order by s.at, s.market_id`;
    expect(rows.map((r) => [r.market_id, time(r.at), num(r.yes_mid_usd), r.status])).toEqual([
      ['M1', iso(5), 0.645, 'open'],
      ['M2', iso(5), 0.29, 'open'],
      ['M3', iso(50), null, null], // not yet listed then
      ['M1', iso(95), 0.59, 'closed'],
    ]);
  });

  it('prices_as_of(at) gives the cross-section of every market known at that instant', async () => {
    const at50 = await db.sql`select market_id, yes_mid_usd from analytics.prices_as_of(${iso(50)}::timestamptz) order by market_id`;
    expect(at50.map((r) => [r.market_id, num(r.yes_mid_usd)])).toEqual([
      ['M1', 0.69],
      ['M2', 0.29],
    ]);
    const at100 = await db.sql`select market_id from analytics.prices_as_of(${iso(100)}::timestamptz) order by market_id`;
    expect(at100.map((r) => r.market_id)).toEqual(['M1', 'M2', 'M3']);
  });

  it('prices_as_of(market_ids[], ats[]) answers pairs sent as arrays, one row each, in input order', async () => {
    const rows = await db.sql`
      select input_ordinal, market_id, as_of, yes_mid_usd, result
      from analytics.prices_as_of(${['M1', 'nope', 'M1', 'M2']}::text[], ${[iso(100), iso(0), iso(9), iso(0)]}::timestamptz[])`;
    expect(rows.map((r) => [Number(r.input_ordinal), r.market_id, time(r.as_of), num(r.yes_mid_usd), r.result])).toEqual([
      [1, 'M1', iso(100), 0.015, 'no'],
      [2, 'nope', iso(0), null, null],
      [3, 'M1', iso(9), 0.645, null],
      [4, 'M2', iso(0), 0.29, null],
    ]);
  });
});

describe('analytics.candles', () => {
  const candles = (interval: string, from: string, to: string, marketId = 'M1') => db.sql`
    select * from analytics.candles(${marketId}, ${interval}::interval, ${from}::timestamptz, ${to}::timestamptz)`;
  const shape = (rows: Record<string, unknown>[]) =>
    rows.map((r) => [
      time(r.bucket_start),
      time(r.bucket_end),
      num(r.open_yes_mid_usd),
      num(r.high_yes_mid_usd),
      num(r.low_yes_mid_usd),
      num(r.close_yes_mid_usd),
      num(r.avg_yes_spread_usd),
      r.quote_changes,
      r.no_observation,
    ]);

  it('builds OHLC of the YES mid from the quotes in force, with the time-weighted spread, flagging unobserved buckets', async () => {
    expect(shape(await candles('30 minutes', iso(0), iso(120)))).toEqual([
      // A for 10 min, then B for 20: spread (0.01*10 + 0.02*20) / 30.
      [iso(0), iso(30), 0.645, 0.69, 0.645, 0.69, 0.0166666667, 2, false],
      // B carried on, but nobody looked between t20 and t90.
      [iso(30), iso(60), 0.69, 0.69, 0.69, 0.69, 0.02, 0, true],
      [iso(60), iso(90), 0.69, 0.69, 0.69, 0.69, 0.02, 0, true],
      // C for 10 min, then D for 20: spread (0.02*10 + 0.01*20) / 30.
      [iso(90), iso(120), 0.59, 0.59, 0.015, 0.015, 0.0133333333, 2, false],
    ]);
  });

  it('aligns buckets to the interval since the epoch, returns empty buckets before the first quote, and handles 1 minute', async () => {
    expect(shape(await candles('1 hour', '2025-12-31T23:30:00Z', iso(30)))).toEqual([
      ['2025-12-31T23:00:00.000Z', iso(0), null, null, null, null, null, 0, true],
      [iso(0), iso(60), 0.645, 0.69, 0.645, 0.69, 0.0183333333, 2, false],
    ]);
    expect(shape(await candles('1 minute', iso(9), iso(12)))).toEqual([
      [iso(9), iso(10), 0.645, 0.645, 0.645, 0.645, 0.01, 0, true], // A was last confirmed at t5
      [iso(10), iso(11), 0.69, 0.69, 0.69, 0.69, 0.02, 1, false],
      [iso(11), iso(12), 0.69, 0.69, 0.69, 0.69, 0.02, 0, false], // within B's confirmed span t10..t20
    ]);
  });

  it('counts a bucket observed while a poll confirmed the quote carried through it, and not after', async () => {
    const rows = await candles('5 minutes', iso(0), iso(30));
    expect(rows.map((r) => [time(r.bucket_start), r.quote_changes, r.no_observation])).toEqual([
      [iso(0), 1, false], // A first seen
      [iso(5), 0, false], // A confirmed at t5
      [iso(10), 1, false], // B first seen
      [iso(15), 0, false], // B confirmed until t20
      [iso(20), 0, false],
      [iso(25), 0, true],
    ]);
  });

  it('keeps day buckets 24 h long in UTC whatever the session time zone (DST)', async () => {
    const rows = await db.sql.begin(async (tx) => {
      await tx`set local time zone 'America/New_York'`;
      return tx`select bucket_start, bucket_end from analytics.candles('M2', '1 day', '2026-03-07T12:00:00Z', '2026-03-10T00:00:00Z')`;
    });
    expect(rows.map((r) => [time(r.bucket_start), time(r.bucket_end)])).toEqual([
      ['2026-03-07T00:00:00.000Z', '2026-03-08T00:00:00.000Z'],
      ['2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z'],
      ['2026-03-09T00:00:00.000Z', '2026-03-10T00:00:00.000Z'],
    ]);
  });

  it('returns no rows for a market the database does not hold, and still refuses bad arguments for it', async () => {
    expect(await candles('1 hour', iso(0), iso(24 * 60), 'NO-SUCH-MARKET')).toEqual([]);
    expect(await candles('1 hour', iso(0), iso(24 * 60), 'M1')).toHaveLength(24);
    await expect(candles('30 seconds', iso(0), iso(10), 'NO-SUCH-MARKET')).rejects.toMatchObject({ code: '22023' });
  });

  it('refuses intervals outside 1 minute .. 1 day and an empty range', async () => {
    await expect(candles('30 seconds', iso(0), iso(10))).rejects.toMatchObject({ code: '22023' });
    await expect(candles('2 days', iso(0), iso(10))).rejects.toMatchObject({ code: '22023' });
    await expect(candles('1 hour', iso(10), iso(10))).rejects.toMatchObject({ code: '22023' });
  });

  it('returns the same candles as a brute-force as-of sampling, for every bucket of a day at 7 minutes', async () => {
    // Independent check of open/close: the mid as of each bucket's start and of its last microsecond.
    const rows = await db.sql`
      select c.bucket_start, c.open_yes_mid_usd, c.close_yes_mid_usd,
             (select yes_mid_usd from analytics.price_as_of('M1', c.bucket_start)) as open_as_of,
             (select yes_mid_usd from analytics.price_as_of('M1', c.bucket_end - interval '1 microsecond')) as close_as_of
      from analytics.candles('M1', '7 minutes', ${iso(0)}::timestamptz, ${iso(24 * 60)}::timestamptz) c`;
    expect(rows.length).toBe(Math.ceil((24 * 60) / 7)); // 2026-01-01 is a multiple of 7 min since the epoch
    // And of the flag: some snapshot's [observed_at, last_observed_at] meets the bucket.
    const flags = await db.sql`
      select c.no_observation, not exists (
               select 1 from prediction.pricing_snapshots s
               where s.market_id = 'M1' and s.observed_at < c.bucket_end and s.last_observed_at >= c.bucket_start) as expected
      from analytics.candles('M1', '7 minutes', ${iso(0)}::timestamptz, ${iso(24 * 60)}::timestamptz) c`;
    expect(flags.filter((f) => f.no_observation !== f.expected)).toEqual([]);
    expect(flags.filter((f) => !f.no_observation).length).toBe(6); // [0,7) [7,14) [14,21), [84,91) [91,98) [98,105)
    for (const r of rows) {
      if (r.open_as_of !== null) expect([time(r.bucket_start), num(r.open_yes_mid_usd)]).toEqual([time(r.bucket_start), num(r.open_as_of)]);
      expect([time(r.bucket_start), num(r.close_yes_mid_usd)]).toEqual([time(r.bucket_start), num(r.close_as_of)]);
    }
  });
});

// Keeps the helper honest: the instants above are what the dataset wrote.
it('the dataset starts at 2026-01-01T00:00Z', () => expect(t(0).toISOString()).toBe('2026-01-01T00:00:00.000Z'));
