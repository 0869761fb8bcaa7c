import { describe, expect, it } from 'vitest';

import { ENDPOINTS } from '../../src/api/endpoints/requests.js';
import { parseTradeList } from '../../src/api/parse.js';
import { writeTrades } from '../../src/store/writeTrades.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { t, writeKnownDataset } from './knownDataset.js';

const db = await useTestDatabase();
await writeKnownDataset(db.sql);

const sec = (min: number, s = 0) => t(min).getTime() / 1000 + s;
let nextId = 1;
/** A feed row of M1 (the known dataset's market), micro-USD as strings, as the service sends them. */
const row = (atSec: number, side: 'yes' | 'no', priceMicroUsd: number, amountMicroUsd: number) => ({
  id: `order-${nextId++}`,
  ownerPubkey: 'Trader1111111111111111111111111111111111111',
  marketId: 'M1',
  eventId: 'E1',
  message: 'fill',
  timestamp: atSec,
  action: 'buy',
  side,
  eventTitle: 'E1',
  marketTitle: 'M1',
  amountUsd: String(amountMicroUsd),
  priceUsd: String(priceMicroUsd),
  eventImageUrl: '',
  isTeamMarket: false,
  marketOptions: null,
});

// Newest first, as the feed answers. Minutes 1-4 fall in the quote A (mid 0.645), 12 in B (mid 0.69).
const feed = {
  data: [
    row(sec(12), 'yes', 700_000, 7_000_000),
    row(sec(4, 30), 'no', 350_000, 1_000_000), // a NO at 0.35 is a YES at 0.65
    row(sec(3), 'yes', 660_000, 3_000_000),
    row(sec(2), 'yes', 620_000, 2_000_000),
    row(sec(1), 'yes', 640_000, 1_000_000),
  ],
};
await writeTrades(db.sql, { runId: null, endpoint: ENDPOINTS.listTrades, trades: parseTradeList(feed).trades, polledAt: t(13) });

describe('analytics over trades', () => {
  it('trade_candles: OHLC of the YES price, volume, count and VWAP per bucket that holds trades', async () => {
    const candles = await db.sql`
      select bucket_start, bucket_end, open_yes_price_usd::float8 as open, high_yes_price_usd::float8 as high,
             low_yes_price_usd::float8 as low, close_yes_price_usd::float8 as close, volume_usd::float8 as volume,
             trades, round(vwap_yes_price_usd, 6)::float8 as vwap
      from analytics.trade_candles('M1', '5 minutes', ${t(0)}, ${t(15)})`;
    expect(candles).toEqual([
      {
        bucket_start: t(0),
        bucket_end: t(5),
        open: 0.64,
        high: 0.66,
        low: 0.62,
        close: 0.65,
        volume: 7,
        trades: 4,
        // (0.64·1 + 0.62·2 + 0.66·3 + 0.65·1) / 7
        vwap: Number(((0.64 + 1.24 + 1.98 + 0.65) / 7).toFixed(6)),
      },
      { bucket_start: t(10), bucket_end: t(15), open: 0.7, high: 0.7, low: 0.7, close: 0.7, volume: 7, trades: 1, vwap: 0.7 },
    ]);
  });

  it('trade_candles: none for a market without trades, and a clear error for a bad interval', async () => {
    expect(await db.sql`select * from analytics.trade_candles('M2', '1 minute', ${t(0)}, ${t(60)})`).toEqual([]);
    await expect(db.sql`select * from analytics.trade_candles('M1', '10 seconds', ${t(0)}, ${t(60)})`).rejects.toThrow(
      /interval must be between 1 minute and 1 day/,
    );
  });

  it('trades_with_mid: each trade beside the quote in force when it was made, never a later one', async () => {
    const rows = await db.sql`
      select trade_id, yes_price_usd::float8 as yes_price, quoted_yes_mid_usd::float8 as mid,
             round(yes_price_minus_mid_usd, 6)::float8 as above_mid, quote_observed_at
      from analytics.trades_with_mid where market_id = 'M1' order by traded_at`;
    expect(rows).toEqual([
      { trade_id: 'order-5', yes_price: 0.64, mid: 0.645, above_mid: -0.005, quote_observed_at: t(0) },
      { trade_id: 'order-4', yes_price: 0.62, mid: 0.645, above_mid: -0.025, quote_observed_at: t(0) },
      { trade_id: 'order-3', yes_price: 0.66, mid: 0.645, above_mid: 0.015, quote_observed_at: t(0) },
      { trade_id: 'order-2', yes_price: 0.65, mid: 0.645, above_mid: 0.005, quote_observed_at: t(0) },
      { trade_id: 'order-1', yes_price: 0.7, mid: 0.69, above_mid: 0.01, quote_observed_at: t(10) },
    ]);
  });
});
